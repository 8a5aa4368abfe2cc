import { z } from 'zod';

/**
 * Wire version of every relay envelope. Bump on any incompatible change; both sides refuse a
 * mismatched major so an old extension never half-works against a new relay.
 */
export const WIRE_VERSION = 1;

const Version = z.literal(WIRE_VERSION);

export const WireError = z.object({
  code: z.string(),
  message: z.string(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type WireError = z.infer<typeof WireError>;

/** Extension -> relay, first frame on /extension. */
export const HelloFrame = z.object({
  version: Version,
  type: z.literal('hello'),
  nodeId: z.string().min(8).max(128),
  pairingToken: z.string().max(256),
  extensionVersion: z.string().max(64),
  /**
   * Sessions the extension detached while no relay could hear it (Disconnect, the relay away past its
   * grace): they end before anything is replayed on them. Optional, so an older extension still says hello.
   */
  endedSessions: z.array(z.string().min(1).max(64)).max(100).optional(),
  endedReason: z.string().max(200).optional(),
});

/** Relay -> extension after a good hello. */
export const WelcomeFrame = z.object({
  version: Version,
  type: z.literal('welcome'),
  nodeId: z.string(),
  relayVersion: z.string(),
});

/** A command, relay -> extension or /ops client -> relay. `id` is the idempotency key. */
export const CommandFrame = z.object({
  version: Version,
  type: z.literal('command'),
  id: z.string().min(1).max(200),
  command: z.string(),
  params: z.unknown(),
});
export type CommandFrame = z.infer<typeof CommandFrame>;

export const ResultFrame = z.discriminatedUnion('ok', [
  z.object({ version: Version, type: z.literal('result'), id: z.string(), ok: z.literal(true), result: z.unknown() }),
  z.object({ version: Version, type: z.literal('result'), id: z.string(), ok: z.literal(false), error: WireError }),
]);
export type ResultFrame = z.infer<typeof ResultFrame>;

export const EventFrame = z.object({
  version: Version,
  type: z.literal('event'),
  event: z.string(),
  params: z.unknown(),
});
export type EventFrame = z.infer<typeof EventFrame>;

export const PingFrame = z.object({ version: Version, type: z.literal('ping'), t: z.number() });
export const PongFrame = z.object({ version: Version, type: z.literal('pong'), t: z.number() });

export const ErrorFrame = z.object({ version: Version, type: z.literal('error'), error: WireError });

/** Everything the extension may send after hello. */
export const ExtensionFrame = z.union([ResultFrame, EventFrame, PingFrame, PongFrame]);
export type ExtensionFrame = z.infer<typeof ExtensionFrame>;
/** Everything the relay may send to the extension (events: the side panel's feed and inbox, RELAY_EVENTS). */
export const RelayFrame = z.union([WelcomeFrame, CommandFrame, EventFrame, PingFrame, PongFrame, ErrorFrame]);
export type RelayFrame = z.infer<typeof RelayFrame>;

/** WebSocket close codes the relay uses, so the extension can tell "re-pair" from "retry". */
export const CLOSE_CODES = {
  unauthorized: 4401,
  badVersion: 4426,
  replaced: 4409,
  protocolError: 4400,
  shuttingDown: 4503,
} as const;

/** HTTP /pair request and responses. */
export const PairRequest = z.object({
  version: Version,
  nodeId: z.string().min(8).max(128),
  name: z.string().max(100).optional(),
  /** Per-launch token the daemon gave the extension; when it matches, pairing is approved at once. */
  launchToken: z.string().max(256).optional(),
  /** Poll a pending request instead of creating a new one. */
  requestId: z.string().max(64).optional(),
});
export type PairRequest = z.infer<typeof PairRequest>;

export const PairResponse = z.discriminatedUnion('status', [
  z.object({ version: Version, status: z.literal('approved'), pairingToken: z.string() }),
  z.object({
    version: Version,
    status: z.literal('pending'),
    requestId: z.string(),
    code: z.string(),
    expiresAt: z.number(),
  }),
]);
export type PairResponse = z.infer<typeof PairResponse>;
