DROP INDEX `analytics_visits_visitor_idx`;--> statement-breakpoint
CREATE INDEX `analytics_visits_last_idx` ON `analytics_visits` (`last`);