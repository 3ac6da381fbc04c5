// The bearer token of `garuda-mcp serve --http`, kept in <home>/serve-http-token (0600).
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import writeFileAtomic from 'write-file-atomic';
import { CliError, ExitCode } from '../../exit-codes.js';
import { shellWord } from '../../format.js';

/** The token file under the home. */
export const HTTP_TOKEN_FILE = 'serve-http-token';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** The gateway's bearer token and the file that keeps it. */
export interface GatewayToken {
  readonly file: string;
  readonly token: string;
  /** Made now (it is then shown once). */
  readonly isNew: boolean;
}

/**
 * Reads the gateway's token from `<home>/serve-http-token`, or makes one (32 random bytes,
 * base64url) in a file of mode 0600, written whole (write-file-atomic). A file that is there is
 * used only when it is a regular file of this user's with mode 0600, opened without following a
 * link (anyone who could read or swap it could call every server behind the gateway).
 *
 * @param home - Garuda's home folder.
 * @returns The token, its file, and whether it was made now.
 * @throws {@link CliError} (exit 3) naming the file, what is wrong and the command that mends it.
 */
export async function gatewayToken(home: string): Promise<GatewayToken> {
  const file = path.join(home, HTTP_TOKEN_FILE);
  const kept = (await keptToken(file))?.trim();
  if (kept !== undefined && TOKEN_SHAPE.test(kept)) return { file, token: kept, isNew: false };
  await mkdir(home, { recursive: true, mode: 0o700 });
  const token = randomBytes(32).toString('base64url');
  await writeFileAtomic(file, `${token}\n`, { mode: 0o600, fsync: true });
  return { file, token, isNew: true };
}

/** The text of the token file, `undefined` when there is none; refuses one that is not safe. */
async function keptToken(file: string): Promise<string | undefined> {
  const refuse = (what: string, mend: string) =>
    new CliError(
      `garuda-mcp serve --http: the token file ${file} ${what}; it must be a regular file of ` +
        `yours with mode 0600, so the token was not used. ${mend}`,
      ExitCode.CONFIG,
    );
  const rm = `rm ${shellWord(file)}`;
  const anew = `Remove it (${rm}) and run the command again: a new token is made.`;
  // Where there is no O_NOFOLLOW (Windows), a link is refused by looking first.
  const noFollow = fsConstants.O_NOFOLLOW ?? 0;
  if (noFollow === 0) {
    const link = await lstat(file).catch(() => undefined);
    if (link?.isSymbolicLink() === true) throw refuse('is a symbolic link', anew);
  }
  let handle;
  try {
    // Non-blocking, so that a FIFO put there cannot hold the open.
    handle = await open(file, fsConstants.O_RDONLY | noFollow | (fsConstants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP' || code === 'EMLINK') throw refuse('is a symbolic link', anew);
    throw refuse(`cannot be read (${code ?? 'error'})`, anew);
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw refuse('is not a regular file', anew);
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) throw refuse('belongs to another user', anew);
    const mode = info.mode & 0o777;
    if (process.platform !== 'win32' && mode !== 0o600) {
      throw refuse(
        `has mode 0${mode.toString(8)}`,
        `If nobody else could have read it, run: chmod 600 ${shellWord(file)}; otherwise remove it (${rm}) and run the command again.`,
      );
    }
    // A token line is 44 bytes; more is not a token (and is never read whole).
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
