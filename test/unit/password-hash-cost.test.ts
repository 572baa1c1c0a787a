import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../server/config';
import { hashPassword, setPasswordHashCost, verifyAgainstDummy, verifyPassword } from '../../server/services/identity/passwords';

// The parameters argon2id wrote before PASSWORD_HASH_COST existed (argon2 0.44's defaults): production keeps them.
const PRODUCTION_PARAMS = '$argon2id$v=19$m=65536,t=3,p=4$';

describe('password hash cost', () => {
  afterEach(() => setPasswordHashCost('default'));

  it("is argon2id's default unless PASSWORD_HASH_COST says otherwise", () => {
    expect(loadConfig({}).passwordHashCost).toBe('default');
    expect(loadConfig({ PASSWORD_HASH_COST: '' }).passwordHashCost).toBe('default');
    expect(loadConfig({ PASSWORD_HASH_COST: 'low' }).passwordHashCost).toBe('low');
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'none' })).toThrow(ConfigError);
    expect(() => loadConfig({ PASSWORD_HASH_COST: 'none' })).toThrow('PASSWORD_HASH_COST: must be default or low');
  });

  it('hashes with the production parameters when nothing is set, and with the cheap ones only when asked', async () => {
    const production = await hashPassword('a-password-123');
    expect(production.startsWith(PRODUCTION_PARAMS)).toBe(true);

    setPasswordHashCost('low');
    const cheap = await hashPassword('a-password-123');
    expect(cheap.startsWith('$argon2id$v=19$m=1024,t=1,p=1$')).toBe(true);
    // A hash keeps its own parameters: both verify whatever the setting is now.
    expect(await verifyPassword(production, 'a-password-123')).toBe(true);
    expect(await verifyPassword(cheap, 'a-password-123')).toBe(true);
    expect(await verifyPassword(cheap, 'another-password')).toBe(false);
    expect(await verifyAgainstDummy('a-password-123')).toBe(false);

    setPasswordHashCost('default');
    expect((await hashPassword('a-password-123')).startsWith(PRODUCTION_PARAMS)).toBe(true);
  });
});
