import { newPasswordState, type NewPasswordPair } from '../../ui/new-password-fields';

/**
 * A chosen password may be sent only once the pair is complete (long enough, typed twice alike). The fields word
 * what is missing themselves (NewPasswordFields), so this sentence is never shown: it only keeps the form from
 * sending (reset and activation screens).
 */
export const passwordPairErrors = (pair: NewPasswordPair) => (newPasswordState(pair).complete ? {} : { password: 'Choose a password and confirm it' });
