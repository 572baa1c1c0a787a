import { describe, expect, it } from 'vitest';
import { DEFAULT_FEATURES, hasFeatureMenu, toggleFeature, toggleReasoning } from '../../src/lib/chat-features';

describe('chat features', () => {
  it('web browsing and image generation exclude each other', () => {
    const browsing = toggleFeature(DEFAULT_FEATURES, 'browsing');
    expect(browsing).toMatchObject({ browsing: true, imageGeneration: false });
    const images = toggleFeature(browsing, 'imageGeneration');
    expect(images).toMatchObject({ browsing: false, imageGeneration: true });
    expect(toggleFeature(images, 'imageGeneration')).toMatchObject({ browsing: false, imageGeneration: false });
    expect(toggleFeature(images, 'browsing')).toMatchObject({ browsing: true, imageGeneration: false });
  });

  it('reasoning effort starts low and flips on each click', () => {
    expect(DEFAULT_FEATURES.reasoningEffort).toBe('low');
    const once = toggleReasoning(DEFAULT_FEATURES);
    expect(once.reasoningEffort).toBe('medium');
    expect(toggleReasoning(once).reasoningEffort).toBe('low');
  });

  it('only the premium package gets the features menu', () => {
    expect(hasFeatureMenu('premium')).toBe(true);
    expect(hasFeatureMenu('Premium')).toBe(true);
    expect(hasFeatureMenu('free')).toBe(false);
    expect(hasFeatureMenu('standard')).toBe(false);
    expect(hasFeatureMenu(null)).toBe(false);
  });
});
