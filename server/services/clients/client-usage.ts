import type { ClientUsage, DepartmentUsage } from '../../../contract/clients';
import { CLIENT_NOT_FOUND, DELETED_DEPARTMENT_NAME, NO_DEPARTMENT_NAME, USAGE_PERIOD_INCOMPLETE } from '../../../contract/clients-constants';
import type { AppContext } from '../../context';
import { departmentUsageBetween, type DepartmentModelUsage } from '../../db/repositories/client-usage';
import { findClientById } from '../../db/repositories/clients';
import { findPrice, priceTable, type PriceTable } from '../../llm/prices';
import { InvalidError, NotFoundError } from '../errors';
import { monthStart } from '../organisation/usage-period';
import type { Scope } from '../scope';
import { requireEveryOrganisation } from './client-scope';

/** The month asked for (1..12), or the previous calendar month (UTC) of `now` when neither part is given. */
export function usageMonth(year: number | undefined, month: number | undefined, now = new Date()): { year: number; month: number } {
  if (year === undefined && month === undefined) {
    const previous = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    return { year: previous.getUTCFullYear(), month: previous.getUTCMonth() + 1 };
  }
  if (year === undefined || month === undefined) throw new InvalidError(USAGE_PERIOD_INCOMPLETE, { [year === undefined ? 'year' : 'month']: USAGE_PERIOD_INCOMPLETE });
  return { year, month };
}

/**
 * The ledger keeps one cost per call; it is split into prompt and completion parts by the model's prices (what the
 * cost was made of), else by the tokens. The total stays the ledger's exactly.
 */
function splitCost(usage: DepartmentModelUsage, prices: PriceTable): { prompt: number; completion: number } {
  const price = findPrice(prices, usage.model);
  const promptWeight = usage.prompt_tokens * (price?.prompt ?? 1);
  const completionWeight = usage.completion_tokens * (price?.completion ?? 1);
  const weight = promptWeight + completionWeight;
  if (usage.cost_usd === 0 || weight === 0) return { prompt: usage.cost_usd, completion: 0 };
  const prompt = (usage.cost_usd * promptWeight) / weight;
  return { prompt, completion: usage.cost_usd - prompt };
}

/** Sub-cent float noise off (six decimals: a millionth of a dollar). */
const usd = (value: number) => Math.round(value * 1e6) / 1e6;

/**
 * GET /usage-logs/clients/{id}/departments: a client's requests, tokens and USD costs per department in one UTC
 * calendar month (the previous one by default), most tokens first; people without a department in one row of their
 * own (department_id null); a department deleted since keeps its row, named DELETED_DEPARTMENT_NAME.
 */
export async function clientDepartmentUsage(
  ctx: Pick<AppContext, 'db' | 'config'>,
  scope: Scope,
  clientId: string,
  period: { year?: number; month?: number },
): Promise<ClientUsage> {
  requireEveryOrganisation(scope);
  if (!(await findClientById(ctx.db, clientId))) throw new NotFoundError(CLIENT_NOT_FOUND);
  const { year, month } = usageMonth(period.year, period.month);
  const rows = await departmentUsageBetween(ctx.db, clientId, monthStart(year, month - 1), monthStart(year, month));
  const prices = priceTable(ctx.config.llm.prices);

  const byDepartment = new Map<string, DepartmentUsage>();
  for (const row of rows) {
    const key = row.department_id ?? '';
    const entry = byDepartment.get(key) ?? {
      department_id: row.department_id,
      department_name: row.department_id === null ? NO_DEPARTMENT_NAME : (row.department_name ?? DELETED_DEPARTMENT_NAME),
      total_requests: 0,
      token_usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      token_costs: { prompt_cost: 0, completion_cost: 0, total_cost: 0 },
    };
    const cost = splitCost(row, prices);
    entry.total_requests += row.requests;
    entry.token_usage.prompt_tokens += row.prompt_tokens;
    entry.token_usage.completion_tokens += row.completion_tokens;
    entry.token_usage.total_tokens += row.prompt_tokens + row.completion_tokens;
    entry.token_costs.prompt_cost += cost.prompt;
    entry.token_costs.completion_cost += cost.completion;
    entry.token_costs.total_cost += row.cost_usd;
    byDepartment.set(key, entry);
  }
  const departments = [...byDepartment.values()]
    .map((entry) => ({
      ...entry,
      token_costs: {
        prompt_cost: usd(entry.token_costs.prompt_cost),
        completion_cost: usd(entry.token_costs.completion_cost),
        total_cost: usd(entry.token_costs.total_cost),
      },
    }))
    .sort((a, b) => b.token_usage.total_tokens - a.token_usage.total_tokens || a.department_name.localeCompare(b.department_name));
  return { client_id: clientId, year, month: String(month).padStart(2, '0'), departments };
}
