// A consumer of the published types, compiled (never run) by ../fetch-types.test.ts once with
// lib.dom and once with Node's globals only. Only names that exist in both are used here.
import { createPinnedFetch, type PinnedFetch } from 'pinned-fetch-under-test';
import { type Agent, Request as UndiciRequest, type Response as UndiciResponse } from 'undici';

const pinnedFetch: PinnedFetch = createPinnedFetch();

// Where a fetch is expected: the global fetch type, the MCP SDK's `FetchLike`, an API with a
// parameter shaped like fetch.
type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;
type FetchParameter = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export const asFetch: typeof fetch = createPinnedFetch();
export const asFetchLike: FetchLike = pinnedFetch;

function takesFetch(fetchFn: typeof fetch): typeof fetch {
  return fetchFn;
}
function takesFetchParameter(fetchFn: FetchParameter): FetchParameter {
  return fetchFn;
}

export async function uses(): Promise<void> {
  takesFetch(pinnedFetch);
  takesFetchParameter(pinnedFetch);
  takesFetch((input, init) => pinnedFetch(input, init));

  const response: Response = await createPinnedFetch()('https://example.com');
  const text: string = await response.text();
  const body: ReadableStream<Uint8Array> | null = response.body;

  // Still undici's Response too, for code written against undici's types; `bytes()` is in
  // undici 7 but not in @types/node 20's Response.
  const undiciResponse: UndiciResponse = await pinnedFetch('https://example.com/');
  const bytes: Uint8Array = await (await pinnedFetch('https://example.com/')).bytes();
  const getUndici: (url: string) => Promise<UndiciResponse> = (url) => pinnedFetch(url);

  // Each kind of input: string, URL, the global Request, undici's Request and init.
  await pinnedFetch(new URL('https://example.com/'), { method: 'POST', body: text });
  await pinnedFetch(new Request('https://example.com/'));
  await pinnedFetch(new UndiciRequest('https://example.com/'), { redirect: 'manual' });

  const agent: Agent = pinnedFetch.dispatcher;
  const closed: Promise<void> = pinnedFetch.close();

  // The types are real, not `any`:
  // @ts-expect-error: the result is a Response, not a string.
  const notText: string = await pinnedFetch('https://example.com/');
  // @ts-expect-error: a number is not a fetch input.
  await pinnedFetch(42);
  // @ts-expect-error: the agent has no such method.
  agent.notAMethod();

  void [body, undiciResponse, bytes, getUndici, closed, notText];
}
