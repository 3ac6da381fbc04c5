// `enable`/`disable --session`: a switch that holds for the terminal session it was given in and
// for no other, kept beside the config files (which it never changes).
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** A terminal session: the kernel's session id and its leader's start time (against pid reuse). */
export interface TerminalSession {
  readonly id: number;
  readonly leaderStart: string;
}

/** The fields of `/proc/<pid>/stat` after the command name, which may hold spaces and `)`. */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * The session this process belongs to: on Linux, every command started from one terminal's
 * shell shares its session (the shell leads it), whatever runs in between (npx, pnpm). Other
 * systems: `undefined` (no `/proc` to read it from).
 */
export function terminalSession(): TerminalSession | undefined {
  // state, ppid, pgrp, session, …: the session is the fourth field after the name.
  const id = Number(statFields('self')?.[3]);
  if (!Number.isInteger(id) || id <= 0) return undefined;
  // starttime is field 22 of stat, the 20th after the name.
  const leaderStart = statFields(id)?.[19];
  return leaderStart === undefined ? undefined : { id, leaderStart };
}

/** What one session has switched: server name → on (true) or off (false). */
export type SessionSwitches = Readonly<Record<string, boolean>>;

interface SessionFile {
  readonly leaderStart: string;
  readonly enabled: Record<string, boolean>;
}

function sessionsFolder(home: string): string {
  return path.join(home, 'sessions');
}

function fileOf(home: string, session: TerminalSession): string {
  return path.join(sessionsFolder(home), `${session.id}.json`);
}

function parse(text: string): SessionFile | undefined {
  try {
    const value = JSON.parse(text) as Partial<SessionFile>;
    if (typeof value.leaderStart !== 'string' || typeof value.enabled !== 'object')
      return undefined;
    const enabled: Record<string, boolean> = {};
    for (const [name, on] of Object.entries(value.enabled ?? {})) {
      if (typeof on === 'boolean')
        Object.defineProperty(enabled, name, { value: on, enumerable: true });
    }
    return { leaderStart: value.leaderStart, enabled };
  } catch {
    return undefined;
  }
}

/**
 * The switches of this session (none when it has none, or its file belongs to an ended session
 * whose id was reused: that file is removed).
 */
export async function readSessionSwitches(
  home: string,
  session: TerminalSession | undefined,
): Promise<SessionSwitches> {
  if (session === undefined) return {};
  const file = fileOf(home, session);
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return {};
  const parsed = parse(text);
  if (parsed === undefined || parsed.leaderStart !== session.leaderStart) {
    await rm(file, { force: true });
    return {};
  }
  return parsed.enabled;
}

/**
 * Sets one switch for this session (written whole, then renamed into place, 0600), and removes
 * the files of sessions that have ended.
 */
export async function writeSessionSwitch(
  home: string,
  session: TerminalSession,
  name: string,
  enabled: boolean,
): Promise<void> {
  const folder = sessionsFolder(home);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  const switches = { ...(await readSessionSwitches(home, session)) };
  Object.defineProperty(switches, name, { value: enabled, enumerable: true });
  const file = fileOf(home, session);
  const temp = `${file}.${process.pid}.tmp`;
  const content: SessionFile = { leaderStart: session.leaderStart, enabled: switches };
  await writeFile(temp, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  await rename(temp, file);
  for (const entry of await readdir(folder).catch(() => [])) {
    const id = Number(entry.replace(/\.json$/, ''));
    if (!entry.endsWith('.json') || !Number.isInteger(id) || id === session.id) continue;
    const leaderStart = statFields(id)?.[19];
    const stored = parse(await readFile(path.join(folder, entry), 'utf8').catch(() => ''));
    if (leaderStart === undefined || stored?.leaderStart !== leaderStart) {
      await rm(path.join(folder, entry), { force: true });
    }
  }
}
