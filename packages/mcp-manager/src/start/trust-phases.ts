// The two trust phases of a start: consent for the definition before anything runs, and the pin
// check of the tools it listed. What each does for a user's or a project's server is read from
// its policy (server-policy.ts).
import { log } from '@garuda/internal';
import { defHash, type ServerConfig } from '@garuda/mcp-config';
import type { SandboxInfo } from '@garuda/mcp-transport';
import {
  checkToolPins,
  getMcpTrustEntry,
  hashTools,
  rememberMcpServer,
  toolHashes,
  upgradeMcpTrustEntry,
  type McpTrustEntry,
  type ToolDiff,
  type ToolPinCheck,
  type TrustStoreLike,
} from '@garuda/mcp-trust';
import type { Tool } from '@modelcontextprotocol/client';
import {
  serverConsentRequest,
  toolsConsentRequest,
  type ConsentContext,
} from '../consent/consent-request.js';
import { pinLabel } from '../offer/prompt-pins.js';
import { isAppPin } from '../offer/app-pins.js';
import type { AuditEvent } from '@garuda/mcp-audit';
import type { ServerPolicy } from './server-policy.js';
import { messageOf, oneLine } from '../common/text.js';
import type { ConsentAnswer, ConsentReply, ConsentRequest, ManagerLogger } from '../types.js';

/** Tool names listed per kind of change in a notice. */
const MAX_NAMES_LISTED = 10;

// The system temp folders count as temp folders on the consent screen: a write path there is
// no reason for a warning. (The sandbox gives each server its own /tmp on Linux anyway.)
const SYSTEM_TEMP_DIRS = process.platform === 'win32' ? [] : ['/tmp', '/var/tmp'];

/** What the trust phases need of the manager, given once. @internal */
export interface TrustDeps {
  readonly store: TrustStoreLike;
  /** Trust given with "once", per trust key: this manager's session only. */
  readonly session: Map<string, McpTrustEntry>;
  /** Asks a consent question (one at a time); may reject when the prompter fails or on abort. */
  readonly ask: (request: ConsentRequest, signal: AbortSignal) => Promise<ConsentReply>;
  /** What the consent screen says of this machine: the paths, and the sandbox once detected. */
  readonly screen: () => Omit<ConsentContext, 'sandbox'> & { readonly sandbox: SandboxInfo };
  readonly notice: (text: string) => void;
  readonly logger: ManagerLogger | undefined;
  /** Records a pin change in the audit log (never throws). */
  readonly audit: (event: AuditEvent) => void;
}

/** Where the trust for a started server comes from, and what its pins were compared with. */
export interface Trusted {
  readonly def: string;
  readonly via: 'store' | 'session';
  /** The stored entry (its pins), if there is one. */
  readonly stored: McpTrustEntry | undefined;
  /** False when the store could not be read: the tools go unchecked this time. */
  readonly storeUsable: boolean;
}

/** A start that ends in a trust phase. @internal */
export interface TrustRefusal {
  readonly state: 'denied' | 'failed' | 'stopped';
  readonly detail: string;
}

/** The detail of a start that was cancelled. @internal */
export const CANCELLED_DETAIL = 'its start was cancelled';

function nameList(names: readonly string[]): string {
  const shown = names.slice(0, MAX_NAMES_LISTED).map((name) => oneLine(pinLabel(name), 60));
  const more = names.length - shown.length;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/**
 * A one-line summary of a tool change, for the notice about a user's server. @internal
 *
 * @param diff - From `checkToolPins`.
 * @param detailed - False when the old pin could not say which tools changed.
 * @returns E.g. `added: upload; removed: fail; changed: echo (description, schema)`.
 */
export function changeSummary(diff: ToolDiff, detailed: boolean): string {
  if (!detailed) return 'its tool list changed (the old record cannot say which tools)';
  const parts: string[] = [];
  if (diff.added.length > 0) parts.push(`added: ${nameList(diff.added)}`);
  if (diff.removed.length > 0) parts.push(`removed: ${nameList(diff.removed)}`);
  if (diff.changed.length > 0) {
    const changed = diff.changed.map((change) => {
      // An app's description side is its content hash and its `_meta.ui`; its schema side its MIME type.
      const [text, schema] = isAppPin(change.tool)
        ? ['content or metadata', 'MIME type']
        : ['description', 'schema'];
      const what = [change.description ? text : '', change.schema ? schema : '']
        .filter(Boolean)
        .join(', ');
      return `${pinLabel(change.tool)} (${what})`;
    });
    parts.push(`changed: ${nameList(changed)}`);
  }
  return parts.join('; ');
}

function sessionEntry(def: string, tools: readonly Tool[]): McpTrustEntry {
  return {
    def,
    tools: hashTools(tools),
    toolHashes: toolHashes(tools),
    at: new Date().toISOString(),
  };
}

/** The audit record of a pin change. */
function pinEvent(
  server: string,
  raw: readonly Tool[],
  diff: ToolDiff | undefined,
  decision: 'pinned' | 'held',
): AuditEvent {
  return {
    kind: 'pin',
    server,
    change: diff === undefined ? 'first' : 'changed',
    decision,
    added: diff?.added.length ?? raw.length,
    removed: diff?.removed.length ?? 0,
    changed: diff?.changed.length ?? 0,
    toolsSha256: hashTools(raw),
  };
}

/** The two trust phases, built once per manager. @internal */
export function trustPhases(deps: TrustDeps) {
  const screen = (): ConsentContext => {
    const context = deps.screen();
    return { ...context, tempDirs: [...SYSTEM_TEMP_DIRS, ...context.tempDirs] };
  };

  /** Asks, turning a failing prompter into a reason and an abort into `undefined`. */
  const ask = async (
    request: ConsentRequest,
    signal: AbortSignal,
  ): Promise<{ answer: ConsentAnswer } | { failed: string } | undefined> => {
    try {
      const answer = await deps.ask(request, signal);
      // Anything but the three answers is a no: a prompter bug must never start a server.
      if (answer === 'once') return { answer: 'once' };
      if (answer === 'remember') return { answer: 'remember' };
      return { answer: 'deny' };
    } catch (error) {
      if (signal.aborted) return undefined;
      return { failed: `the consent question failed: ${messageOf(error)}` };
    }
  };

  const remember = async (
    key: string,
    server: string,
    trusted: { def: string; tools?: readonly Tool[] },
  ): Promise<McpTrustEntry | undefined> => {
    try {
      return await rememberMcpServer(deps.store, key, trusted);
    } catch (error) {
      deps.notice(
        `Could not save your trust in MCP server "${server}" (${oneLine(messageOf(error))}). It is trusted for this session only, and you will be asked again next time.`,
      );
      return undefined;
    }
  };

  /**
   * Consent: the stored trust of this very definition, an answer given in this session, or the
   * question (when the policy asks one).
   */
  const consent = async (
    server: ServerConfig,
    policy: ServerPolicy,
    signal: AbortSignal,
  ): Promise<Trusted | TrustRefusal> => {
    const def = defHash(server.def);
    const key = policy.trustKey;
    let stored: McpTrustEntry | undefined;
    let storeUsable = true;
    try {
      stored = await getMcpTrustEntry(deps.store, key);
    } catch (error) {
      if (policy.unreadableStore === 'fail') {
        return {
          state: 'failed',
          detail: `the trust store could not be read: ${messageOf(error)}`,
        };
      }
      storeUsable = false;
      deps.notice(
        `Could not read the trust store (${oneLine(messageOf(error))}): the tools of MCP server "${server.name}" are not checked against their pins this time.`,
      );
    }
    if (!policy.askConsent) return { def, via: 'store', stored, storeUsable };
    // An answer given in this session wins over the store: "once" for changed tools must not
    // be asked again on a reload, though the store still holds the old pins.
    if (deps.session.get(key)?.def === def) return { def, via: 'session', stored, storeUsable };
    if (stored?.def === def) return { def, via: 'store', stored, storeUsable };
    const asked = await ask(serverConsentRequest(server, screen()), signal);
    if (asked === undefined) return { state: 'stopped', detail: CANCELLED_DETAIL };
    if ('failed' in asked) return { state: 'failed', detail: asked.failed };
    if (asked.answer === 'deny') return { state: 'denied', detail: 'you did not allow it' };
    if (asked.answer === 'remember') stored = await remember(key, server.name, { def });
    if (asked.answer === 'once' || stored === undefined) {
      deps.session.set(key, { def, at: new Date().toISOString() });
      return { def, via: 'session', stored, storeUsable };
    }
    return { def, via: 'store', stored, storeUsable };
  };

  /**
   * The pin check of the tools a server listed: new pins saved, old ones upgraded, and a change
   * announced or asked about as the policy says. `undefined` when the tools may be used.
   */
  const pins = async (
    server: ServerConfig,
    policy: ServerPolicy,
    trusted: Trusted,
    raw: readonly Tool[],
    signal: AbortSignal,
  ): Promise<TrustRefusal | undefined> => {
    const { def } = trusted;
    const key = policy.trustKey;
    // Pins are only compared with a record of this very definition: a user who edits their own
    // server's command gets it pinned afresh, not a warning about their own change.
    const pinned =
      trusted.via === 'session'
        ? deps.session.get(key)
        : trusted.stored?.def === def
          ? trusted.stored
          : undefined;
    const check: ToolPinCheck = trusted.storeUsable
      ? checkToolPins(pinned, raw)
      : { state: 'unchanged' };
    const savePins = async () => {
      if (trusted.via === 'session') deps.session.set(key, sessionEntry(def, raw));
      else await remember(key, server.name, { def, tools: raw });
    };

    if (check.state === 'new') {
      await savePins();
      deps.audit(pinEvent(server.name, raw, undefined, 'pinned'));
      return undefined;
    }
    if (check.state === 'unchanged') {
      if (check.entry !== undefined && trusted.via === 'store') {
        await upgradeMcpTrustEntry(deps.store, key, check.entry).catch((error: unknown) =>
          log(
            deps.logger,
            'warn',
            `could not add tool pins for "${server.name}": ${messageOf(error)}`,
          ),
        );
      }
      return undefined;
    }
    if (policy.toolChange === 'announce') {
      deps.notice(
        `MCP server "${server.name}" changed its tools since they were last used (${changeSummary(check.diff, check.detailed)}). Its new tools are in use; check them if you did not expect this.`,
      );
      await savePins();
      deps.audit(pinEvent(server.name, raw, check.diff, 'pinned'));
      return undefined;
    }
    const asked = await ask(
      toolsConsentRequest(server, screen(), {
        diff: check.diff,
        tools: raw,
        detailed: check.detailed,
      }),
      signal,
    );
    if (asked === undefined) return { state: 'stopped', detail: CANCELLED_DETAIL };
    if ('failed' in asked) return { state: 'failed', detail: asked.failed };
    if (asked.answer === 'deny') {
      deps.audit(pinEvent(server.name, raw, check.diff, 'held'));
      return { state: 'denied', detail: 'you did not allow its changed tools' };
    }
    if (asked.answer === 'remember') {
      const saved = await remember(key, server.name, { def, tools: raw });
      if (saved !== undefined) deps.session.delete(key);
      else deps.session.set(key, sessionEntry(def, raw));
    } else {
      deps.session.set(key, sessionEntry(def, raw));
    }
    deps.audit(pinEvent(server.name, raw, check.diff, 'pinned'));
    return undefined;
  };

  /**
   * The pin check of a tool list a running server sent after `list_changed`: which of its tools
   * may be used. A user's server's change is announced and pinned; a project server's added and
   * changed tools are held back (`interim` gets the list without them at once) until the user
   * allows them. Removed tools need no question. Never throws.
   *
   * @param last - The tool list in use until now: the baseline when the store cannot be read.
   * @param mayAsk - False after the user declined a change of this connection: hold, do not ask.
   */
  const repin = async (
    server: ServerConfig,
    policy: ServerPolicy,
    lists: { readonly raw: readonly Tool[]; readonly last: readonly Tool[] },
    mayAsk: boolean,
    interim: (active: Repinned) => void,
    signal: AbortSignal,
  ): Promise<Repinned> => {
    const { raw } = lists;
    const def = defHash(server.def);
    const key = policy.trustKey;
    const inSession = deps.session.get(key);
    let pinned: McpTrustEntry | undefined =
      inSession?.def === def && inSession.tools !== undefined ? inSession : undefined;
    let fromStore = false;
    if (pinned === undefined) {
      try {
        const stored = await getMcpTrustEntry(deps.store, key);
        if (stored?.def === def && stored.tools !== undefined) {
          pinned = stored;
          fromStore = true;
        }
      } catch (error) {
        log(deps.logger, 'warn', `the trust store could not be read: ${messageOf(error)}`);
      }
    }
    pinned ??= sessionEntry(def, lists.last);
    const check = checkToolPins(pinned, raw);
    const savePins = async (where: 'store' | 'session') => {
      if (
        where === 'session' ||
        (await remember(key, server.name, { def, tools: raw })) === undefined
      ) {
        deps.session.set(key, sessionEntry(def, raw));
      } else deps.session.delete(key);
    };
    const all: Repinned = { active: raw, held: [] };
    if (check.state !== 'changed') return all;
    const { diff, detailed } = check;
    if (policy.toolChange === 'announce') {
      deps.notice(
        `MCP server "${server.name}" changed its tools while it ran (${changeSummary(diff, detailed)}). Its new tools are in use; check them if you did not expect this.`,
      );
      await savePins(fromStore ? 'store' : 'session');
      deps.audit(pinEvent(server.name, raw, diff, 'pinned'));
      return all;
    }
    const heldNames = new Set(
      detailed
        ? [...diff.added, ...diff.changed.map((change) => change.tool)]
        : raw.map((tool) => tool.name),
    );
    if (heldNames.size === 0) {
      await savePins(fromStore ? 'store' : 'session');
      deps.audit(pinEvent(server.name, raw, diff, 'pinned'));
      return all;
    }
    const held: Repinned = {
      active: raw.filter((tool) => !heldNames.has(tool.name)),
      held: [...heldNames],
    };
    interim(held);
    deps.audit(pinEvent(server.name, raw, diff, 'held'));
    if (!mayAsk) return held;
    const asked = await ask(
      toolsConsentRequest(server, screen(), { diff, tools: raw, detailed }),
      signal,
    );
    if (asked === undefined) return held;
    if ('failed' in asked || asked.answer === 'deny') {
      deps.notice(
        `MCP server "${server.name}" changed its tools while it ran (${changeSummary(diff, detailed)}); ` +
          `${'failed' in asked ? oneLine(asked.failed) : 'you did not allow the change'}, so its added and changed tools are not in use. Reload it to be asked again.`,
      );
      return { ...held, declined: true };
    }
    await savePins(asked.answer === 'remember' ? 'store' : 'session');
    deps.audit(pinEvent(server.name, raw, diff, 'pinned'));
    return all;
  };

  return { consent, pins, repin };
}

/** Which tools of a refreshed list may be used. @internal */
export interface Repinned {
  readonly active: readonly Tool[];
  /** Tools the server lists that wait for the user's consent (not in `active`). */
  readonly held: readonly string[];
  /** The user declined (or the question failed): ask no more for this connection. */
  readonly declined?: boolean;
}
