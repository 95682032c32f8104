DROP TABLE `analytics_salts`;--> statement-breakpoint
CREATE INDEX `podcast_downloads_day_idx` ON `podcast_downloads` (`day`,`counted`);--> statement-breakpoint
ALTER TABLE `analytics_attributions` DROP COLUMN `visit_id`;--> statement-breakpoint
ALTER TABLE `analytics_goals` DROP COLUMN `visit_id`;