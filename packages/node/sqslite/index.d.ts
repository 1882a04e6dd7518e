/** Options of start(). */
export interface StartOptions {
  /** A sqslite.toml or elasticmq.conf (relative to the working directory). */
  config?: string;
  /** "manual" freezes time until advanceClock(); default: the binary's ("system"). */
  clock?: "system" | "manual";
  /** SQS's 60-second guards (QueueDeletedRecently, PurgeQueueInProgress). */
  strict?: boolean;
  /** How standard queues deliver: "at-least-once" rehearses duplicates, as AWS delivers. */
  delivery?: "exact" | "at-least-once";
  /** The seed of at-least-once delivery: the same seed, the same run. */
  deliverySeed?: number;
  /** More sqslite flags. */
  args?: string[];
  /** The binary; default: $SQSLITE_BIN, else this platform's @sqslite package. */
  binary?: string;
  timeoutMs?: number;
}

export type ClockStep = number | { seconds: number } | { milliseconds: number };

/** The admin handle of a running server. */
export interface Connection {
  endpoint: string;
  reset(): Promise<void>;
  /** Seconds as a number, or { seconds } / { milliseconds }; resolves to the new epoch ms. */
  advanceClock(step: ClockStep): Promise<number>;
  now(): Promise<number>;
}

export interface Server extends Connection {
  stop(): Promise<void>;
  log(): string;
  pid: number;
}

export function binaryPath(): string;
export function start(options?: StartOptions): Promise<Server>;
export function connect(endpoint?: string): Connection;
