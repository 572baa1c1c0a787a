import { describe, expect as vitestExpect, it } from 'vitest';
import { expect } from '../model/support/expect';

// The model tests' expect (test/model/support/expect.ts): decides passes itself, fails exactly as Vitest's.
describe("the model tests' expect", () => {
  it('fails a mismatch with Vitest’s own message, the check’s line on top of the stack', () => {
    const failures: Array<[() => void, string]> = [
      [() => expect(1).toBe(2), 'expected 1 to be 2'],
      [() => expect({ a: [1] }).toEqual({ a: [2] }), 'expected { a: [ 1 ] } to deeply equal { a: [ 2 ] }'],
      [() => expect(0).toBeNull(), 'expected +0 to be null'],
      [() => expect(null).toBeUndefined(), 'expected null to be undefined'],
      [() => expect(undefined).toBeDefined(), 'expected undefined to be defined'],
      [() => expect(1, 'the count').toBe(2), 'the count: expected 1 to be 2'],
    ];
    for (const [assert, message] of failures) {
      let caught: unknown;
      try {
        assert();
      } catch (error) {
        caught = error;
      }
      vitestExpect(caught).toBeInstanceOf(Error);
      vitestExpect((caught as Error).message).toContain(message);
      vitestExpect((caught as Error).stack).not.toContain('support/expect.ts');
    }
  });

  it('passes what Vitest passes, also where its equality is looser than a strict deep compare', () => {
    expect(NaN).toBe(NaN);
    expect({ a: 1, b: [{ c: 'x' }] }).toEqual({ a: 1, b: [{ c: 'x' }] });
    // toEqual leaves out undefined properties and reads asymmetric matchers: the strict compare says no, Vitest yes.
    expect({ a: 1, b: undefined }).toEqual({ a: 1 });
    expect({ id: 'm1', at: 3 }).toEqual({ id: 'm1', at: vitestExpect.anything() });
    expect(null).toBeNull();
    expect(undefined).toBeUndefined();
    expect(0).toBeDefined();
  });

  it('leaves every other matcher, .not and the static helpers to Vitest', () => {
    expect({ a: 1, b: 2 }).toMatchObject({ a: 1 });
    expect([1, 2]).toHaveLength(2);
    expect(1).not.toBe(2);
    expect({ at: 1 }).toEqual({ at: expect.anything() });
    vitestExpect(() => expect([1]).toHaveLength(2)).toThrow('expected [ 1 ] to have a length of 2 but got 1');
    vitestExpect(() => expect(1).not.toBe(1)).toThrow('expected 1 not to be 1');
  });
});
