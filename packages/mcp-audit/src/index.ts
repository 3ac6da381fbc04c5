export { AuditLog, readAuditLog, verifyAuditLog } from './audit-chain.js';
export type { AuditEvent, AuditRecord, AuditSink, AuditVerdict } from './audit-chain.js';
export { sha256Json, sha256Text } from './hash.js';
export { LIMITS } from './limits.js';
