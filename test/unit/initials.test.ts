import { describe, expect, it } from 'vitest';
import { initials } from '../../src/lib/initials';

describe('initials', () => {
  it('takes the first letters of the first two words, uppercase', () => {
    expect(initials('Nur User')).toBe('NU');
    expect(initials('ahmad bin abdullah')).toBe('AB');
  });

  it('gives one letter for a one-word name', () => {
    expect(initials('Siti')).toBe('S');
  });

  it('ignores extra whitespace and returns an empty string for a blank name', () => {
    expect(initials('  Nur   User  ')).toBe('NU');
    expect(initials('')).toBe('');
    expect(initials('   ')).toBe('');
  });

  it('keeps non-ASCII letters whole', () => {
    expect(initials('Élodie Ñúñez')).toBe('ÉÑ');
    expect(initials('𝒜lpha beta')).toBe('𝒜B');
  });
});
