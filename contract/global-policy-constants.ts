// Spec texts and limits of the organisation's global policy, free of zod (the SPA's editor checks them too).
import { groupedNumber } from '../shared/grouped-number';

/** Administration spec section 5 and 9: at most 1500 words, counted by splitting on whitespace. */
export const POLICY_MAX_WORDS = 1500;
/** The word counter warns above this share of the limit. */
export const POLICY_NEAR_RATIO = 0.9;

export const POLICY_TOO_LONG = `The policy cannot be more than ${groupedNumber(POLICY_MAX_WORDS)} words`;
export const POLICY_LOAD_FAILED = 'Failed to load global policy';
export const POLICY_UPDATE_FAILED = 'Failed to update global policy';
export const POLICY_UPDATED = 'Global policy updated successfully';



/** A bound on characters too, so 1,500 very long "words" cannot make a huge prompt. */
export const POLICY_MAX_CHARS = 15_000;
export const POLICY_TOO_MANY_CHARS = `The policy cannot be more than ${groupedNumber(POLICY_MAX_CHARS)} characters`;
