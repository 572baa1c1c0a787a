import type { Feature } from '../../contract/features';

/**
 * What each package allows in the chat. Premium adds image generation; every other package (free, standard, or
 * one this table does not know yet) gets browsing and reasoning. One place, read by the user view the SPA gets
 * and by the send that enforces it.
 */
const PREMIUM: readonly Feature[] = ['browsing', 'image_generation', 'reasoning'];
const BASIC: readonly Feature[] = ['browsing', 'reasoning'];

export function featuresOf(packageName: string): Feature[] {
  return [...(packageName.toLowerCase() === 'premium' ? PREMIUM : BASIC)];
}
