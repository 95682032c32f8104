CREATE TABLE `booking_busy` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `booking_busy_start_idx` ON `booking_busy` (`start`);--> statement-breakpoint
CREATE TABLE `booking_event_types` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`duration_min` integer NOT NULL,
	`location` text DEFAULT '' NOT NULL,
	`price_cents` integer DEFAULT 0 NOT NULL,
	`buffer_before_min` integer DEFAULT 0 NOT NULL,
	`buffer_after_min` integer DEFAULT 0 NOT NULL,
	`min_notice_min` integer DEFAULT 0 NOT NULL,
	`window_days` integer DEFAULT 60 NOT NULL,
	`max_per_day` integer,
	`step_min` integer DEFAULT 30 NOT NULL,
	`questions` text DEFAULT '[]' NOT NULL,
	`is_active` integer DEFAULT true NOT NULL,
	`sort_order` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_event_types_slug_unique` ON `booking_event_types` (`slug`);--> statement-breakpoint
CREATE TABLE `booking_reminders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`offset_seconds` integer NOT NULL,
	`due_at` integer NOT NULL,
	`queued_at` integer,
	`outbox_id` integer,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_reminders_unique` ON `booking_reminders` (`booking_id`,`offset_seconds`);--> statement-breakpoint
CREATE INDEX `booking_reminders_due_idx` ON `booking_reminders` (`queued_at`,`due_at`);--> statement-breakpoint
CREATE TABLE `booking_settings` (
	`id` integer PRIMARY KEY NOT NULL,
	`time_zone` text,
	`weekly` text NOT NULL,
	`overrides` text DEFAULT '[]' NOT NULL,
	`busy_ics_url` text,
	`busy_fetched_at` integer,
	`busy_error` text,
	`feed_token` text NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_type_id` integer NOT NULL,
	`start` integer NOT NULL,
	`end` integer NOT NULL,
	`block_start` integer NOT NULL,
	`block_end` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`answers` text DEFAULT '{}' NOT NULL,
	`time_zone` text NOT NULL,
	`status` text DEFAULT 'confirmed' NOT NULL,
	`uid` text NOT NULL,
	`sequence` integer DEFAULT 0 NOT NULL,
	`no_show` integer DEFAULT false NOT NULL,
	`cancelled_by` text,
	`cancel_reason` text,
	`cancelled_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`event_type_id`) REFERENCES `booking_event_types`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_uid_unique` ON `bookings` (`uid`);--> statement-breakpoint
CREATE INDEX `bookings_block_idx` ON `bookings` (`status`,`block_start`);--> statement-breakpoint
CREATE INDEX `bookings_start_idx` ON `bookings` (`start`);--> statement-breakpoint
ALTER TABLE `outbox` ADD `calendar` text;--> statement-breakpoint
INSERT INTO `booking_event_types` (`slug`, `name`, `description`, `duration_min`, `step_min`, `min_notice_min`, `window_days`, `questions`) VALUES ('strategy-call', 'Strategy Call', 'A 30-minute strategy session: we look at where you are, and you leave with a custom action plan. No pitch.', 30, 30, 240, 60, '[{"id":"focus","label":"What would you like to focus on?","required":false}]');--> statement-breakpoint
INSERT INTO `booking_settings` (`id`, `weekly`, `overrides`, `feed_token`) VALUES (1, '[[],[{"start":"09:00","end":"17:00"}],[{"start":"09:00","end":"17:00"}],[{"start":"09:00","end":"17:00"}],[{"start":"09:00","end":"17:00"}],[{"start":"09:00","end":"17:00"}],[]]', '[]', lower(hex(randomblob(24))));
