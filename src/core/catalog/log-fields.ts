/**
 * The fields of a conversation log line, as rag-gate names them: the `log-fields` setting maps a log's own names to
 * these, and the monitor's log record reads them. (Other tools' names for them are the log record's, in
 * core/monitor/log-record.ts.)
 */
export const LOG_FIELDS = ['session_id', 'timestamp', 'user_query', 'answer', 'refused', 'embedding'] as const;
export type LogField = (typeof LOG_FIELDS)[number];
