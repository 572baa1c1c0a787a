import type { FastifyInstance } from 'fastify';
import { paths } from '../../contract/api-paths';
import {
  loginRequest,
  loginResponse,
  logoutRequest,
  refreshResponse,
  requestResetPasswordRequest,
  resetPasswordRequest,
} from '../../contract/auth';
import { messageOnly } from '../../contract/envelope';
import type { AppContext } from '../context';
import { bearerToken } from '../http/auth';
import { ok } from '../http/reply';
import { parseBody } from '../http/validate';
import { login, logout, PASSWORD_UPDATED, refresh, requestPasswordReset, resetPassword } from '../services/auth';

export async function authRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.post(paths.login, async (request) => {
    const body = parseBody(loginRequest, request.body);
    return ok(loginResponse, await login(ctx, body, request.ip));
  });

  // The refresh token is the bearer here; the access token is usually expired by now.
  app.post(paths.refresh, async (request) => {
    return ok(refreshResponse, await refresh(ctx, bearerToken(request)));
  });

  app.post(paths.logout, async (request) => {
    const body = parseBody(logoutRequest, request.body);
    await logout(ctx, body.refresh_token);
    return ok(messageOnly, { message: 'Logged out' });
  });

  app.post(paths.requestResetPassword, async (request) => {
    const body = parseBody(requestResetPasswordRequest, request.body);
    const message = await requestPasswordReset(ctx, body.email, request.ip, request.log);
    return ok(messageOnly, { message }, message);
  });

  app.post(paths.resetPassword, async (request) => {
    const body = parseBody(resetPasswordRequest, request.body);
    await resetPassword(ctx, body.token, body.new_password);
    return ok(messageOnly, { message: PASSWORD_UPDATED }, PASSWORD_UPDATED);
  });
}
