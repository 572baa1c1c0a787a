/** API paths of the contract, relative to the `/api/v1` prefix. */
export const API_PREFIX = '/api/v1';

export const paths = {
  health: '/health',
  login: '/auth/login',
  refresh: '/auth/refresh',
  logout: '/auth/logout',
  requestResetPassword: '/auth/request-reset-password',
  resetPassword: '/auth/reset-password',
  microsoftSso: '/auth/social/microsoft/',
  me: '/users/me',
  updateProfile: '/users/me/update-profile',
  departments: '/departments/',
} as const;
