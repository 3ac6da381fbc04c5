import { checkErrors, checkPublicEntry } from '@garuda/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from './index.js';
import * as errors from './errors.js';
import { OAuthFlowError, OAuthFlowErrorCode } from './index.js';

describe('public entry', () => {
  checkPublicEntry(api, OAuthFlowErrorCode, import.meta.url);

  it('defaults match the design: a five minute callback', () => {
    expect(api.LIMITS.defaultCallbackTimeoutMs).toBe(300_000);
  });
});

describe('errors', () => {
  checkErrors(OAuthFlowError, {
    marker: 'garuda.mcp-oauth.OAuthFlowError',
    codes: OAuthFlowErrorCode,
    prefix: 'OAUTH_',
    below: [api.CallbackPortInUseError],
    samples: [
      {
        error: new api.CallbackPortInUseError('127.0.0.1', 4242, undefined),
        Class: api.CallbackPortInUseError,
        code: OAuthFlowErrorCode.CALLBACK_PORT_IN_USE,
        name: 'CallbackPortInUseError',
      },
      {
        error: errors.callbackTimeout(300_000),
        Class: OAuthFlowError,
        code: OAuthFlowErrorCode.CALLBACK_TIMEOUT,
        name: 'OAuthFlowError',
      },
    ],
  });

  it('pass the cause through, with the fields of the failure', () => {
    const cause = new Error('listen EADDRINUSE');
    const error = new api.CallbackPortInUseError('127.0.0.1', 4242, cause);
    expect(error.cause).toBe(cause);
    expect(error.port).toBe(4242);
  });

  it('names every class after itself, and every failure has its code', () => {
    const classes: OAuthFlowError[] = [
      new api.InsecureAuthorizationServerError('issuer', 'x'),
      new api.NoClientRegistrationError('x', false),
      new api.ClientIssuerMismatchError('x', 'https://a.example', 'https://b.example'),
      new api.CallbackPortChangedError('x', 1, 2, true),
      new api.CallbackPortInUseError('127.0.0.1', 1, undefined),
      new api.AuthorizationDeniedError('access_denied'),
      new api.KeyringUnavailableError('no D-Bus session bus'),
    ];
    for (const error of classes) {
      expect(error.name).toBe(error.constructor.name);
      expect(Object.values(OAuthFlowErrorCode)).toContain(error.code);
    }
    const plain: OAuthFlowError[] = [
      errors.invalidOption('x'),
      errors.invalidEntry('x'),
      errors.providerNotReady('x'),
      errors.pkceNotSupported('https://a'),
      errors.unsafeAuthorizationUrl('x'),
      errors.noSignInInProgress('x'),
      errors.callbackServerFailed('127.0.0.1', 1, undefined),
      errors.callbackTimeout(300_000),
      errors.signInAborted(),
      errors.stateMismatch(true),
      errors.invalidRedirectUrl('x'),
      errors.unsafeBrowserUrl('x'),
    ];
    for (const error of plain) {
      expect(Object.getPrototypeOf(error)).toBe(OAuthFlowError.prototype);
      expect(error.name).toBe('OAuthFlowError');
    }
    const codes = new Set([...classes, ...plain].map((error) => error.code));
    expect([...codes].sort()).toEqual(Object.values(OAuthFlowErrorCode).sort());
    expect(errors.callbackTimeout(300_000).message).toContain('5 min');
  });
});
