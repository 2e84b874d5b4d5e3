import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { excludedReferrerSql } from './exclusions.js';
import type { ReleaseFiles } from './release.js';

/** A domain that links to a target, with its harmonic-centrality position in the release (1 is the most central) when the ranks file was read. */
export interface GraphReferrer {
  domain: string;
  rank: number | null;
}

export interface TargetReferrers {
  /** Whether the target is a vertex of the release at all (a site the crawl never reached is not). */
  inGraph: boolean;
  /** Every referring domain that is not excluded. */
  total: number;
  /** The best-ranked of them (most hosts first without ranks), at most the number asked for. */
  top: GraphReferrer[];
}

export function reverseDomain(domain: string): string {
  return domain.split('.').reverse().join('.');
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** Common Crawl's files are gzip-compressed tab-separated text without quoting. */
function readTsv(path: string, columns: Record<string, string>, extra = ''): string {
  const columnList = Object.entries(columns)
    .map(([name, type]) => `${literal(name)}: ${literal(type)}`)
    .join(', ');
  return `read_csv(${literal(path)}, delim = '\t', header = false, quote = '', escape = '', compression = 'gzip', auto_detect = false, columns = {${columnList}}${extra})`;
}

/**
 * The referring domains of many targets in one pass over a release: the edges file (the bulk of a release, about
 * 16 GB) is read once for all targets together, and the answers stay in DuckDB until each target's are asked for.
 */
export class ReleaseGraph {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    private readonly targetsInGraph: ReadonlySet<string>,
  ) {}

  /** Reads the release for these targets (forward domains such as `example.com`). */
  static async read(files: ReleaseFiles, targets: readonly string[]): Promise<ReleaseGraph> {
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const vertices = readTsv(files.vertices, { id: 'BIGINT', rev_domain: 'VARCHAR', num_hosts: 'BIGINT' });
      const edges = readTsv(files.edges, { from_id: 'BIGINT', to_id: 'BIGINT' });
      const wanted = targets.length === 0 ? 'NULL' : targets.map((target) => literal(reverseDomain(target))).join(', ');
      await connection.run(`CREATE TEMP TABLE target_vertices AS SELECT id, rev_domain FROM ${vertices} WHERE rev_domain IN (${wanted})`);
      await connection.run(`
        CREATE TEMP TABLE inbound AS
        SELECT DISTINCT from_id, to_id FROM ${edges}
        WHERE to_id IN (SELECT id FROM target_vertices) AND from_id <> to_id`);
      await connection.run(`
        CREATE TEMP TABLE linked AS
        SELECT t.rev_domain AS target, v.rev_domain AS referrer, v.num_hosts
        FROM inbound i JOIN target_vertices t ON t.id = i.to_id JOIN ${vertices} v ON v.id = i.from_id
        WHERE NOT ${excludedReferrerSql('v.rev_domain')}`);
      if (files.ranks === undefined) {
        await connection.run('CREATE TEMP TABLE referrers AS SELECT target, referrer, num_hosts, NULL::BIGINT AS rank FROM linked');
      } else {
        // The ranks file starts with a header line (#harmonicc_pos, #harmonicc_val, #pr_pos, #pr_val, #host_rev, #n_hosts); older releases lack #n_hosts.
        const ranks = readTsv(
          files.ranks,
          { harmonicc_pos: 'BIGINT', harmonicc_val: 'DOUBLE', pr_pos: 'BIGINT', pr_val: 'DOUBLE', host_rev: 'VARCHAR', n_hosts: 'BIGINT' },
          ', skip = 1, null_padding = true',
        );
        await connection.run(`
          CREATE TEMP TABLE referrers AS
          SELECT l.target, l.referrer, l.num_hosts, r.harmonicc_pos AS rank
          FROM linked l LEFT JOIN (SELECT host_rev, harmonicc_pos FROM ${ranks} WHERE host_rev IN (SELECT referrer FROM linked)) r ON r.host_rev = l.referrer`);
      }
      const found = await connection.runAndReadAll('SELECT rev_domain FROM target_vertices');
      const inGraph = new Set(found.getRowObjectsJS().map((row) => reverseDomain(String(row.rev_domain))));
      return new ReleaseGraph(instance, connection, inGraph);
    } catch (error) {
      connection.closeSync();
      instance.closeSync();
      throw error;
    }
  }

  /** A target's referring domains: the count of all, and the `keep` best ranked. */
  async referrersOf(target: string, keep: number): Promise<TargetReferrers> {
    if (!this.targetsInGraph.has(target)) return { inGraph: false, total: 0, top: [] };
    const rev = reverseDomain(target);
    const count = await this.connection.runAndReadAll('SELECT count(*) AS total FROM referrers WHERE target = $target', { target: rev });
    const top = await this.connection.runAndReadAll(
      `SELECT referrer, rank FROM referrers WHERE target = $target ORDER BY rank ASC NULLS LAST, num_hosts DESC, referrer LIMIT ${Math.max(0, Math.floor(keep))}`,
      { target: rev },
    );
    return {
      inGraph: true,
      total: Number(count.getRowObjectsJS()[0]?.total ?? 0),
      top: top.getRowObjectsJS().map((row) => ({ domain: reverseDomain(String(row.referrer)), rank: row.rank === null ? null : Number(row.rank) })),
    };
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
