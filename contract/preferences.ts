import { z } from 'zod';
import { requestBody } from './fields';
import { themeChoices } from './theme';

export const PREFERENCES_SAVED = 'Preferences saved';
export const THEME_INVALID = 'theme must be one of system, light, dark';

/** Every field is required: the theme is the only preference so far. The answer is the person (contract user). */
export const updatePreferencesRequest = requestBody({
  theme: z.enum(themeChoices, { error: THEME_INVALID }),
});
export type UpdatePreferencesRequest = z.infer<typeof updatePreferencesRequest>;
