import { RecentCall, verdictOf } from '../../../src/analytics/health/trunk-health.rule';

const call = (id: string, status: string, failure_class = '', answered = 0): RecentCall => ({
  call_id: id,
  status,
  failure_class,
  answered,
});
const failing = (id: string, cls = 'agent_unreachable') => call(id, 'failed', cls);

describe('trunk health rule', () => {
  it('is unhealthy when the 5 most recent calls all failed for the agent or routing', () => {
    const recent = [
      failing('c5', 'routing'),
      failing('c4'),
      failing('c3', 'agent_timeout'),
      failing('c2'),
      failing('c1', 'agent_error'),
    ];
    expect(verdictOf(recent)).toEqual({
      healthy: false,
      reason: 'the last 5 calls failed (agent_error, agent_timeout, agent_unreachable, routing)',
      callIds: ['c1', 'c2', 'c3', 'c4', 'c5'],
    });
  });

  it('says nothing with fewer than 5 calls, or when one of them failed for another reason', () => {
    expect(verdictOf([failing('c4'), failing('c3'), failing('c2'), failing('c1')])).toBeNull();
    expect(
      verdictOf([failing('c5'), failing('c4'), failing('c3', 'capacity'), failing('c2'), failing('c1')]),
    ).toBeNull();
    expect(verdictOf([call('c1', 'disconnected')])).toBeNull();
    expect(verdictOf([])).toBeNull();
  });

  it('is healthy when the most recent call was answered', () => {
    expect(verdictOf([call('c6', 'connected', '', 1), failing('c5')])).toEqual({
      healthy: true,
      reason: 'call c6 was answered',
      callIds: ['c6'],
    });
  });
});
