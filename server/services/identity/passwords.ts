import argon2 from 'argon2';

/**
 * How much work a new hash costs. 'default' is argon2id's own defaults (64 MiB, 3 passes, 4 lanes: about 0.2-0.5 s
 * on 2 cores), what production uses. 'low' (1 MiB, 1 pass) exists for the test suites, where hundreds of sign-ins
 * at the default cost took minutes; it is set through PASSWORD_HASH_COST and never by default. A hash carries its
 * own parameters, so verifying an existing hash costs what it cost when it was made, whatever the setting now.
 */
export type PasswordHashCost = 'default' | 'low';

const OPTIONS: Record<PasswordHashCost, argon2.Options> = {
  default: { type: argon2.argon2id },
  low: { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 },
};

let cost: PasswordHashCost = 'default';

/** Called once at start (server/main.ts, the test app) with the configured cost; later hashes use it. */
export function setPasswordHashCost(next: PasswordHashCost): void {
  if (next === cost) return;
  cost = next;
  dummyHash = undefined;
}

export function passwordHashOptions(which: PasswordHashCost = cost): argon2.Options {
  return OPTIONS[which];
}

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, passwordHashOptions());
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    // A malformed stored hash is a wrong password, not a server error.
    return false;
  }
}

let dummyHash: Promise<string> | undefined;

/**
 * Spends the same time as a real verification so an unknown email answers as slowly as a wrong password
 * (no account probing by timing). The hash is computed once per process (again if the cost changes); it protects
 * nothing.
 */
export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hashPassword('dummy-password-for-timing');
  await verifyPassword(await dummyHash, password);
  return false;
}
