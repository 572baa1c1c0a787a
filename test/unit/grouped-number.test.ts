import { describe, expect, it } from 'vitest';
import { groupedNumber } from '../../shared/grouped-number';
import { PROMPT_TOO_LONG } from '../../contract/prompt-library-constants';
import { POLICY_TOO_MANY_CHARS } from '../../contract/global-policy-constants';
import { DESCRIPTION_TOO_LONG } from '../../contract/feedback-constants';

describe('groupedNumber', () => {
  it('writes whole numbers as en-US does, commas between thousands', () => {
    for (const n of [0, 7, 42, 999, 1000, 1500, 9999, 15_000, 20_000, 123_456, 1_000_000, 98_765_432_1, -1500, -999]) {
      expect(groupedNumber(n)).toBe(n.toLocaleString('en-US'));
    }
  });

  it('gives the spec texts with their limits grouped', () => {
    expect(PROMPT_TOO_LONG).toBe('Prompt cannot be more than 20,000 characters');
    expect(POLICY_TOO_MANY_CHARS).toBe('The policy cannot be more than 15,000 characters');
    expect(DESCRIPTION_TOO_LONG).toBe('Description cannot be more than 5,000 characters');
  });
});
