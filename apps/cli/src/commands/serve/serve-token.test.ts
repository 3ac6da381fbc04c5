// The token file of `serve --http` is used only when it is a regular 0600 file of the user's.
import { chmod, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from '../../exit-codes.js';
import { gatewayToken, HTTP_TOKEN_FILE } from './serve-token.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function tempHome(): Promise<string> {
  const home = await mkdtemp(path.join(tmpdir(), 'garuda-serve-http-'));
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  return home;
}

describe('the token file', () => {
  const refusal = async (home: string) => {
    const error = await gatewayToken(home).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).exitCode).toBe(ExitCode.CONFIG);
    return (error as CliError).message;
  };

  it('token file: one of mode 0644 is refused, naming the file and the command that mends it', async () => {
    const home = await tempHome();
    const file = path.join(home, HTTP_TOKEN_FILE);
    await writeFile(file, `${'a'.repeat(43)}\n`, { mode: 0o644 });
    await chmod(file, 0o644);
    const message = await refusal(home);
    expect(message).toContain(`${file} has mode 0644`);
    expect(message).toContain(`chmod 600 ${file}`);
    expect(message).toContain(`rm ${file}`);
    expect(message).not.toContain('a'.repeat(43));
  });

  it('token file: a symbolic link to a file elsewhere is refused, never followed', async () => {
    const home = await tempHome();
    const elsewhere = path.join(await tempHome(), 'token');
    await writeFile(elsewhere, `${'b'.repeat(43)}\n`, { mode: 0o600 });
    await symlink(elsewhere, path.join(home, HTTP_TOKEN_FILE));
    const message = await refusal(home);
    expect(message).toContain('is a symbolic link');
    expect(message).not.toContain('b'.repeat(43));
  });

  it('token file: a regular 0600 file of the user is used as it is; none is made anew', async () => {
    const home = await tempHome();
    const made = await gatewayToken(home);
    expect(made.isNew).toBe(true);
    const again = await gatewayToken(home);
    expect(again).toEqual({ ...made, isNew: false });
  });
});
