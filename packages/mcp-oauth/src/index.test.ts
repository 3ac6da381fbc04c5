import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import {
  callbackServerFailed,
  callbackTimeout,
  invalidEntry,
  invalidOption,
  invalidRedirectUrl,
  noSignInInProgress,
  pkceNotSupported,
  providerNotReady,
  signInAborted,
  stateMismatch,
  unsafeAuthorizationUrl,
  unsafeBrowserUrl,
} from './errors.js';
import { OAuthFlowError, OAuthFlowErrorCode } from './index.js';

describe('public entry', () => {
  it('exports exactly the documented names', () => {
    expect(Object.keys(api).sort()).toEqual(
      [
        'AuthStore',
        'AuthorizationDeniedError',
        'CallbackPortChangedError',
        'CallbackPortInUseError',
        'DEFAULT_AUTH_LOCK_STALE_MS',
        'DEFAULT_AUTH_LOCK_TIMEOUT_MS',
        'DEFAULT_CALLBACK_TIMEOUT_MS',
        'DEFAULT_OPENER_TIMEOUT_MS',
        'DEFAULT_REVOKE_TIMEOUT_MS',
        'GarudaOAuthProvider',
        'InsecureAuthorizationServerError',
        'MAX_PASTED_URL_LENGTH',
        'NoClientRegistrationError',
        'OAuthFlowError',
        'OAuthFlowErrorCode',
        'SERVER_NAME_PATTERN',
        'USER_SCOPE',
        'checkAuthorizationServerMetadata',
        'createOAuthProvider',
        'freePort',
        'openBrowser',
        'parseRedirectUrl',
        'revoke',
        'waitForCallback',
      ].sort(),
    );
  });

  it('defaults match the design: a five minute callback', () => {
    expect(api.DEFAULT_CALLBACK_TIMEOUT_MS).toBe(300_000);
  });
});

describe('errors', () => {
  it('carry a stable code, a name, the cause and a cross-copy marker', () => {
    const cause = new Error('listen EADDRINUSE');
    const error = new api.CallbackPortInUseError('127.0.0.1', 4242, cause);
    expect(error).toBeInstanceOf(OAuthFlowError);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).toBe(OAuthFlowErrorCode.CALLBACK_PORT_IN_USE);
    expect(error.name).toBe('CallbackPortInUseError');
    expect(error.cause).toBe(cause);
    expect(error.port).toBe(4242);
    expect(OAuthFlowError.isInstance(error)).toBe(true);
    const foreign = {
      [Symbol.for('garuda.mcp-oauth.OAuthFlowError')]: true,
      code: 'CALLBACK_TIMEOUT',
    };
    expect(OAuthFlowError.isInstance(foreign)).toBe(true);
    expect(OAuthFlowError.isInstance(new Error('x'))).toBe(false);
    expect(OAuthFlowError.isInstance(null)).toBe(false);
  });

  it('has one code per failure mode, each equal to its name', () => {
    for (const [name, code] of Object.entries(OAuthFlowErrorCode)) expect(code).toBe(name);
  });

  it('names every class after itself, and every failure has its code', () => {
    const classes: OAuthFlowError[] = [
      new api.InsecureAuthorizationServerError('issuer', 'x'),
      new api.NoClientRegistrationError('x', false),
      new api.CallbackPortChangedError('x', 1, 2, true),
      new api.CallbackPortInUseError('127.0.0.1', 1, undefined),
      new api.AuthorizationDeniedError('access_denied'),
    ];
    for (const error of classes) {
      expect(error.name).toBe(error.constructor.name);
      expect(Object.values(OAuthFlowErrorCode)).toContain(error.code);
    }
    const plain: OAuthFlowError[] = [
      invalidOption('x'),
      invalidEntry('x'),
      providerNotReady('x'),
      pkceNotSupported('https://a'),
      unsafeAuthorizationUrl('x'),
      noSignInInProgress('x'),
      callbackServerFailed('127.0.0.1', 1, undefined),
      callbackTimeout(300_000),
      signInAborted(),
      stateMismatch(true),
      invalidRedirectUrl('x'),
      unsafeBrowserUrl('x'),
    ];
    for (const error of plain) {
      expect(Object.getPrototypeOf(error)).toBe(OAuthFlowError.prototype);
      expect(error.name).toBe('OAuthFlowError');
    }
    const codes = new Set([...classes, ...plain].map((error) => error.code));
    expect([...codes].sort()).toEqual(Object.values(OAuthFlowErrorCode).sort());
    expect(callbackTimeout(300_000).message).toContain('5 min');
  });
});
