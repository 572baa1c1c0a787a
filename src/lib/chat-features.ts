import type { ReasoningEffort } from '../../contract/chat';

/** The send options the input box offers (spec section 4, Features). */
export interface ChatFeatures {
  browsing: boolean;
  imageGeneration: boolean;
  reasoningEffort: ReasoningEffort;
}

export const DEFAULT_FEATURES: ChatFeatures = { browsing: false, imageGeneration: false, reasoningEffort: 'low' };

/** Web browsing and image generation exclude each other: switching one on switches the other off. */
export function toggleFeature(features: ChatFeatures, feature: 'browsing' | 'imageGeneration'): ChatFeatures {
  const on = !features[feature];
  return {
    ...features,
    browsing: feature === 'browsing' ? on : on ? false : features.browsing,
    imageGeneration: feature === 'imageGeneration' ? on : on ? false : features.imageGeneration,
  };
}

/** Each click flips low <-> medium. */
export function toggleReasoning(features: ChatFeatures): ChatFeatures {
  return { ...features, reasoningEffort: features.reasoningEffort === 'low' ? 'medium' : 'low' };
}

/** The premium package gets the features dropdown; every other package one browsing toggle. */
export const hasFeatureMenu = (packageName: string | null | undefined) => packageName?.toLowerCase() === 'premium';
