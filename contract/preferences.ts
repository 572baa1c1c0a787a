import { z } from 'zod';
import { paths } from './api-paths';
import { requestBody } from './fields';
import { themeChoices } from './theme';

/** PATCH: the signed-in person's own preferences (under the API prefix). */
export const PREFERENCES_PATH = paths.preferences;

export const PREFERENCES_SAVED = 'Preferences saved';
export const THEME_INVALID = 'theme must be one of system, light, dark';

/** Every field is required: the theme is the only preference so far. The answer is the person (contract user). */
export const updatePreferencesRequest = requestBody({
  theme: z.enum(themeChoices, { error: THEME_INVALID }),
});
export type UpdatePreferencesRequest = z.infer<typeof updatePreferencesRequest>;
