import type { AppContext } from '../../context';
import { usableReset } from './auth';
import { enforceRateLimits, type RateLimitCheck } from '../../platform/rate-limit';
import { usableActivation } from './registration';
import { sha256Hex } from './tokens';

/**
 * The reset and activation screens check their link before any password is typed. A check answers only "works" or
 * the refusal the real request would give, and guessing is limited like signing in: each address has the failed
 * sign-in allowance for its checks, and a link that works takes its hit back (someone opening their own mail is not
 * guessing).
 */
function checkLimit(ctx: AppContext, ip: string): RateLimitCheck {
  return { key: `link-check:ip:${ip}`, rule: ctx.config.rateLimits.loginPerIp };
}

async function checked(ctx: AppContext, ip: string, check: () => Promise<unknown>): Promise<void> {
  const limit = checkLimit(ctx, ip);
  await enforceRateLimits(ctx.rateLimits, [limit]);
  await check();
  await ctx.rateLimits.forgive(limit.key);
}

/** POST /auth/reset-password/check: 400 'Invalid or expired reset token' unless the token can still set a password. */
export function checkResetLink(ctx: AppContext, token: string, ip: string): Promise<void> {
  return checked(ctx, ip, () => usableReset(ctx.db, token));
}

/** POST /auth/activate/check: the refusal POST /auth/activate would give (with its `code`), or nothing. */
export function checkActivationLink(ctx: AppContext, code: string, ip: string): Promise<void> {
  return checked(ctx, ip, () => usableActivation(ctx.db, sha256Hex(code)));
}
