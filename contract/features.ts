// Chat features a person's package entitles them to (zod-free: the login route and machines/ read it).
// The server computes a user's `features` from the organisation's active package and enforces them; the SPA
// only reads them.
export const featureNames = ['browsing', 'image_generation', 'reasoning'] as const;
export type Feature = (typeof featureNames)[number];

/** How a screen or an error names each feature. */
export const featureLabels: Record<Feature, string> = {
  browsing: 'Web browsing',
  image_generation: 'Image generation',
  reasoning: 'Reasoning',
};

/** The refusal when a person asks for a feature their organisation's package lacks. */
export const featureNotIncluded = (feature: Feature) =>
  `${featureLabels[feature]} is not included in your organisation's package.`;
