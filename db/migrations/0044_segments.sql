CREATE TABLE `segments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text(100) NOT NULL,
	`match` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
DROP INDEX `subscriber_tags_tag_idx`;--> statement-breakpoint
CREATE INDEX `subscriber_tags_tag_idx` ON `subscriber_tags` (`tag_id`,`subscriber_id`);--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `segment_id` integer REFERENCES segments(id);--> statement-breakpoint
CREATE INDEX `broadcast_recipients_subscriber_idx` ON `broadcast_recipients` (`subscriber_id`);