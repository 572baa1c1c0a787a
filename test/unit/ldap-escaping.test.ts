import { describe, expect, it } from 'vitest';
import { escapeDnValue, escapeFilterValue } from '../../server/services/identity/ldap-directory';

// What a person types at sign-in goes into the superuser's bind DN template or search filter: it must stay a value.
describe('LDAP values from the sign-in form', () => {
  it.each([
    ['ben', 'ben'],
    ['*', '\\2a'],
    ['a*)(uid=*', 'a\\2a\\29\\28uid=\\2a'],
    ['back\\slash', 'back\\5cslash'],
    ['nul\0', 'nul\\00'],
  ])('filter value %j becomes %j', (value, escaped) => {
    expect(escapeFilterValue(value)).toBe(escaped);
  });

  it.each([
    ['ben', 'ben'],
    ['ben,ou=admins', 'ben\\,ou\\=admins'],
    ['a+b', 'a\\+b'],
    ['#lead', '\\#lead'],
    [' padded ', '\\ padded\\ '],
    ['quote"<>;', 'quote\\"\\<\\>\\;'],
  ])('DN value %j becomes %j', (value, escaped) => {
    expect(escapeDnValue(value)).toBe(escaped);
  });
});
