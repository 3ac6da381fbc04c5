import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** A private key and a self-signed certificate, both PEM. */
export interface TestCertificate {
  readonly key: string;
  /** The certificate; pass it as the client's `ca` to trust it. */
  readonly cert: string;
}

/**
 * Makes a self-signed certificate for the DNS name `name` (CN and subjectAltName), valid for one
 * day, with the system's `openssl` (`.ci/run` installs it), in a temporary folder that is removed
 * again. Node has no API that creates certificates.
 *
 * @param name - The DNS name, e.g. `mcp.oauth-fixture.test`.
 * @returns The key and certificate.
 * @throws Error when `name` is not a plain DNS name or openssl fails
 * @example
 * const { key, cert } = await makeCertificate('mcp.oauth-fixture.test');
 * const fetch = createPinnedFetch({ allowLoopback: true, lookup, tls: { ca: cert } });
 */
export async function makeCertificate(name: string): Promise<TestCertificate> {
  if (!/^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*$/.test(name)) {
    throw new Error(`makeCertificate: not a plain DNS name: ${JSON.stringify(name)}`);
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'garuda-test-cert-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    // A key of the P-256 curve: as strong as RSA-3072 for a test and much faster to make.
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-addext',
      `subjectAltName=DNS:${name}`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ]);
    return { key: await readFile(keyFile, 'utf8'), cert: await readFile(certFile, 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
