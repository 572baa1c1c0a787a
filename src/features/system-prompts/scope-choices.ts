import type { ClientChoice } from '../../../machines/system-prompts.machine';

/** The selectors' key for "everyone" (a prompt or a preview of no client). */
export const EVERYONE = 'everyone';
export const EVERYONE_LABEL = 'Everyone (no client)';

/** The choices of a scope selector: everyone, then each client by name. */
export const scopeItems = (clients: ClientChoice[] | null) => [
  { id: EVERYONE, label: EVERYONE_LABEL },
  ...(clients ?? []).map((c) => ({ id: c.id, label: c.name })),
];

export const keyOfScope = (clientId: string | null) => clientId ?? EVERYONE;
export const scopeOfKey = (key: string | null) => (key === null || key === EVERYONE ? null : key);

/** A prompt's scope in words: everyone, or the client's name (its id while the names are not read). */
export function scopeLabel(clientId: string | null, clients: ClientChoice[] | null): string {
  if (clientId === null) return 'Everyone';
  return clients?.find((c) => c.id === clientId)?.name ?? 'A client';
}
