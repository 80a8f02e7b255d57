// A checked policy of tenants with made-up tokens, for the dispatcher's unit tests.

import { checkPolicy, type ServicePolicy } from '../../src/service/policy.js';

/** Tenants by name, each with its fields (weight, priority, quotas...). */
export const testPolicy = (tenants: Record<string, object>): ServicePolicy =>
  checkPolicy({ tenants: Object.entries(tenants).map(([name, t], i) => ({ name, token: `token-number-${i}-of-the-test`, ...t })) }, 'test');
