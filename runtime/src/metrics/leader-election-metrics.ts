import { Gauge, type Registry } from 'prom-client';

/** Sets `leader_election_master_status{name}`: 1 while this process holds the lease. */
export type LeaderStatus = (leaseName: string, leading: boolean) => void;

export function registerLeaderElectionMetrics(registry: Registry): LeaderStatus {
  const status = new Gauge({
    name: 'leader_election_master_status',
    help:
      'Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, 1 indicates master. ' +
      "'name' is the string used to identify the lease. Please make sure to group by name.",
    labelNames: ['name'] as const,
    registers: [registry],
  });
  return (name, leading) => status.set({ name }, leading ? 1 : 0);
}
