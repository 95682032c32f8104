DROP INDEX `analytics_events_ts_idx`;--> statement-breakpoint
CREATE INDEX `analytics_events_ts_cover_idx` ON `analytics_events` (`ts`,`visitor_id`,`path`);