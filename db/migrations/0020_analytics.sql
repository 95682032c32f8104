CREATE TABLE `analytics_attributions` (
	`ref` text PRIMARY KEY NOT NULL,
	`visit_id` text NOT NULL,
	`source` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_attributions_created_idx` ON `analytics_attributions` (`created_at`);--> statement-breakpoint
CREATE TABLE `analytics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ts` integer NOT NULL,
	`visitor_id` text NOT NULL,
	`visit_id` text NOT NULL,
	`path` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_events_ts_idx` ON `analytics_events` (`ts`);--> statement-breakpoint
CREATE INDEX `analytics_events_visit_idx` ON `analytics_events` (`visit_id`);--> statement-breakpoint
CREATE TABLE `analytics_goals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`ts` integer NOT NULL,
	`goal` text NOT NULL,
	`visit_id` text,
	`source` text DEFAULT 'Direct' NOT NULL,
	`value` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_goals_ts_idx` ON `analytics_goals` (`ts`);--> statement-breakpoint
CREATE TABLE `analytics_salts` (
	`day` text PRIMARY KEY NOT NULL,
	`salt` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `analytics_visits` (
	`id` text PRIMARY KEY NOT NULL,
	`visitor_id` text NOT NULL,
	`start` integer NOT NULL,
	`last` integer NOT NULL,
	`pageviews` integer NOT NULL,
	`entry_path` text NOT NULL,
	`exit_path` text NOT NULL,
	`referrer` text DEFAULT '' NOT NULL,
	`utm_source` text DEFAULT '' NOT NULL,
	`utm_medium` text DEFAULT '' NOT NULL,
	`utm_campaign` text DEFAULT '' NOT NULL,
	`source` text NOT NULL,
	`device` text NOT NULL,
	`browser` text NOT NULL,
	`os` text NOT NULL,
	`country` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `analytics_visits_start_idx` ON `analytics_visits` (`start`);--> statement-breakpoint
CREATE INDEX `analytics_visits_visitor_idx` ON `analytics_visits` (`visitor_id`,`last`);