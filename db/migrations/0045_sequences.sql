CREATE TABLE `sequence_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`enrolment_id` integer NOT NULL,
	`step_id` integer NOT NULL,
	`status` text NOT NULL,
	`possibly_duplicated` integer DEFAULT false NOT NULL,
	`message_id` text,
	`last_error` text,
	`sent_at` integer,
	FOREIGN KEY (`enrolment_id`) REFERENCES `sequence_enrolments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`step_id`) REFERENCES `sequence_steps`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sequence_deliveries_unique` ON `sequence_deliveries` (`enrolment_id`,`step_id`);--> statement-breakpoint
CREATE INDEX `sequence_deliveries_step_idx` ON `sequence_deliveries` (`step_id`,`status`);--> statement-breakpoint
CREATE TABLE `sequence_enrolments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sequence_id` integer NOT NULL,
	`subscriber_id` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`exit_reason` text,
	`last_position` integer DEFAULT 0 NOT NULL,
	`enrolled_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`last_sent_at` integer,
	`next_due_at` integer,
	`tries` integer DEFAULT 0 NOT NULL,
	`ended_at` integer,
	FOREIGN KEY (`sequence_id`) REFERENCES `sequences`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`subscriber_id`) REFERENCES `newsletter_subscribers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sequence_enrolments_due_idx` ON `sequence_enrolments` (`sequence_id`,`status`,`next_due_at`);--> statement-breakpoint
CREATE INDEX `sequence_enrolments_subscriber_idx` ON `sequence_enrolments` (`subscriber_id`,`sequence_id`);--> statement-breakpoint
CREATE TABLE `sequence_steps` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`sequence_id` integer NOT NULL,
	`position` integer NOT NULL,
	`subject` text NOT NULL,
	`preheader` text,
	`content` text NOT NULL,
	`delay_amount` integer NOT NULL,
	`delay_unit` text NOT NULL,
	`delay_seconds` integer NOT NULL,
	`window` text,
	`deleted_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`sequence_id`) REFERENCES `sequences`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sequence_steps_sequence_idx` ON `sequence_steps` (`sequence_id`,`position`);--> statement-breakpoint
CREATE TABLE `sequences` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`status` text DEFAULT 'paused' NOT NULL,
	`trigger_type` text NOT NULL,
	`trigger_value` text,
	`exit_tags` text DEFAULT '[]' NOT NULL,
	`exit_on_purchase` integer DEFAULT false NOT NULL,
	`exit_on_booking` integer DEFAULT false NOT NULL,
	`allow_reentry` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
