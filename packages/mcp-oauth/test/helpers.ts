// Helpers for this package's tests only.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { caught, recordingLogger, tempDir, useTempDir, type TempDir } from '@garuda/test-utils';

export { caught, recordingLogger, tempDir, useTempDir, type TempDir };

/** Every text an error carries: name, message, stack and the same for its causes. */
export function errorTexts(error: unknown, depth = 0): string[] {
  if (depth > 5 || error === undefined || error === null) return [];
  if (typeof error !== 'object') return [String(error)];
  const e = error as { name?: unknown; message?: unknown; stack?: unknown; cause?: unknown };
  const own = [e.name, e.message, e.stack].filter((v): v is string => typeof v === 'string');
  return [...own, String(error), ...errorTexts(e.cause, depth + 1)];
}

const SECRET_KEYS = new Set([
  'access_token',
  'refresh_token',
  'id_token',
  'client_secret',
  'codeVerifier',
  'state',
  'code',
]);

/**
 * Collects every secret the tests see (from the auth file and from callbacks) and everything
 * the code under test said (log lines, error messages, pages), and checks that no output
 * contains a secret.
 */
export class SecretScan {
  readonly secrets = new Set<string>();
  readonly outputs: string[] = [];

  addSecret(value: string | null | undefined): void {
    // Short values (a port, "Bearer") would match by chance; real secrets are long.
    if (typeof value === 'string' && value.length >= 16) this.secrets.add(value);
  }

  /** Walks a JSON value and keeps every string under a secret-looking key. */
  addSecretsFrom(value: unknown): void {
    if (Array.isArray(value)) {
      for (const item of value) this.addSecretsFrom(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        if (SECRET_KEYS.has(key) && typeof item === 'string') this.addSecret(item);
        else this.addSecretsFrom(item);
      }
    }
  }

  /** Reads the auth file (if any) and keeps its secrets. */
  async addSecretsFromFile(file: string): Promise<void> {
    try {
      this.addSecretsFrom(JSON.parse(await fs.readFile(file, 'utf8')));
    } catch {
      // No file (yet): nothing to add.
    }
  }

  addParams(params: URLSearchParams | undefined): void {
    if (!params) return;
    for (const key of ['code', 'state']) this.addSecret(params.get(key));
  }

  addOutput(...texts: (string | undefined)[]): void {
    for (const t of texts) if (typeof t === 'string') this.outputs.push(t);
  }

  addError(error: unknown): void {
    this.outputs.push(...errorTexts(error));
  }

  /** The outputs that contain a secret (empty when clean). */
  leaks(): string[] {
    const found: string[] = [];
    for (const output of this.outputs) {
      for (const secret of this.secrets) {
        if (output.includes(secret)) found.push(`${output.slice(0, 120)}… contains a secret`);
      }
    }
    return found;
  }
}

/** Every regular file under `dir`, recursively, as absolute paths. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else if (entry.isFile()) out.push(full);
  }
  return out;
}
