/**
 * The media stages of the media gateway: framework-free, each testable alone with recorded packets.
 * Import from 'media-gateway/src/media' (this barrel) only; the files behind it may move.
 *
 * Pipeline of one call (the Call object owns them all):
 *   caller RTP in → parseRtpInto → ReceiveStats.onPacket → (PCMA: alawToMulaw) → EnergyVad.pushMulaw
 *     → TurnTracker.caller* → agent.sendAudio           (ProcessingMeter: RTP in → agent out)
 *   agent audio → FramePacer.push → onFrame → (PCMA: mulawToAlaw) → RtpSender.audio → socket
 *     → TurnTracker.agentFrameSent                     (ProcessingMeter: PacedFrameInfo.heldMs)
 *   RTCP in → parseRtcp → roundTripMs (carrier_lag_ms = mean RTT / 2); RTCP out → serializeSenderReport
 *   call end → TurnTracker.finish, ReceiveStats.snapshot, estimateMos
 */
export { type MonotonicClock, monotonicClock, ManualClock } from './clock';
export {
  type G711Codec,
  MULAW_SILENCE,
  ALAW_SILENCE,
  mulawDecode,
  mulawEncode,
  alawDecode,
  alawEncode,
  alawToMulaw,
  mulawToAlaw,
  mulawToLinear,
  alawToLinear,
  g711PayloadType,
  codecUsedName,
} from './g711';
export {
  RTP_HEADER_BYTES,
  type RtpHeader,
  type RtpParseError,
  type RtpWriteHeader,
  newRtpHeader,
  parseRtpInto,
  parseRtp,
  writeRtp,
} from './rtp';
export { type RtpSenderOptions, RtpSender } from './rtp-sender';
export {
  RTCP_SR,
  RTCP_RR,
  type RtcpReportBlock,
  type RtcpSenderReport,
  type RtcpReceiverReport,
  type RtcpOtherPacket,
  type RtcpPacket,
  type RtcpParseError,
  parseRtcp,
  serializeSenderReport,
  serializeReceiverReport,
  ntpFromUnixMs,
  ntpMiddle32,
  roundTripMs,
} from './rtcp';
export { type SequenceVerdict, type ReceiveStatsSnapshot, ReceiveStats } from './receive-stats';
export {
  TELEPHONE_EVENT_BYTES,
  type TelephoneEvent,
  parseTelephoneEvent,
  writeTelephoneEvent,
  dtmfDigit,
  dtmfEvent,
  DtmfReceiver,
  dtmfPackets,
} from './dtmf';
export {
  type TrunkVadSettings,
  type VadConfig,
  type VadEvent,
  VAD_DEFAULTS,
  VAD_FRAME_MS,
  VAD_FLOOR_DBFS,
  VAD_CEILING_DBFS,
  resolveVad,
  speechProbability,
  mulawLevelDbfs,
  EnergyVad,
} from './vad';
export {
  type Speaker,
  type Turn,
  type TurnSummary,
  type TurnTrackerOptions,
  TurnTracker,
  recordTurns,
} from './turn-tracker';
export {
  type EModelInput,
  G711_IMPAIRMENT,
  delayImpairment,
  effectiveEquipmentImpairment,
  eModelR,
  mosFromR,
  estimateMos,
} from './emodel';
export { FrameSchedule } from './frame-schedule';
export { type PacedFrameInfo, type FramePacerOptions, type FramePacerStats, FramePacer } from './frame-pacer';
export { ProcessingMeter } from './processing-meter';
export { PacerDriver } from './pacer-driver';
export { RtcpSession } from './rtcp-session';
export { type CallMediaRecord, type CallerFrameResult, CallMeasurements } from './call-measurements';
