// Why a connection to a remote server failed, in words. The SDK and undici report it as
// "fetch failed" (wrapped again as "Version negotiation probe failed: fetch failed"); the reason
// is the system or TLS error code somewhere down the `cause` chain.

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'the connection was refused (nothing listens at that address and port)',
  ENOTFOUND: 'its host name was not found (check the URL)',
  EAI_AGAIN: 'its host name could not be looked up now (DNS did not answer)',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  ECONNRESET: 'the server closed the connection',
  UND_ERR_SOCKET: 'the server closed the connection',
  EHOSTUNREACH: 'its address cannot be reached from this machine',
  ENETUNREACH: 'its network cannot be reached from this machine',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its TLS certificate is self-signed, so it is not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its TLS certificate chain is self-signed, so it is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its TLS certificate is not trusted (unknown issuer)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its TLS certificate is not trusted (unknown issuer)',
  CERT_HAS_EXPIRED: 'its TLS certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its TLS certificate is for another host name',
};

/**
 * The reason a remote server could not be reached, from the first system or TLS error code in
 * `error`'s `cause` chain (`ECONNREFUSED`, `ENOTFOUND`, a certificate error…). @internal
 *
 * @param error - What the connect failed with.
 * @returns E.g. `the connection was refused (…) [ECONNREFUSED]`, or `undefined` when no known
 *   code is in the chain.
 */
export function networkReason(error: unknown): string | undefined {
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && Object.hasOwn(REASONS, code)) {
      return `${REASONS[code]} [${code}]`;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
