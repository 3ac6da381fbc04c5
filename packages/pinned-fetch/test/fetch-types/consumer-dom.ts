// The lib.dom half of ./consumer.ts: names that exist only with the DOM lib.
import { createPinnedFetch } from 'pinned-fetch-under-test';

type DomFetch = (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;

export const asDomFetch: DomFetch = createPinnedFetch();
export const page: Document = document;
