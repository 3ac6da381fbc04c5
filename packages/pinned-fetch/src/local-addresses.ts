import os from 'node:os';
import { inspectAddress } from './classify-address.js';
import { localAddressesError } from './errors.js';

/**
 * The addresses of this machine's network interfaces, as `os.networkInterfaces()` reports
 * them now (interfaces come and go, so this is read per connection, not cached).
 */
export function systemLocalAddresses(): string[] {
  const addresses: string[] = [];
  for (const entries of Object.values(os.networkInterfaces())) {
    for (const entry of entries ?? []) addresses.push(entry.address);
  }
  return addresses;
}

/**
 * Canonical forms of the given interface addresses, so that `::ffff:a.b.c.d` or a long IPv6
 * spelling still matches the address a lookup returned.
 *
 * @throws {@link PinnedFetchError} `FETCH_LOCAL_ADDRESSES_FAILED` when the source throws or returns something unusable.
 */
export function readLocalAddresses(source: () => Iterable<string>): ReadonlySet<string> {
  const canonical = new Set<string>();
  try {
    for (const address of source()) {
      const { address: text } = inspectAddress(String(address));
      if (text !== undefined) canonical.add(text);
    }
  } catch (error) {
    throw localAddressesError(error);
  }
  return canonical;
}
