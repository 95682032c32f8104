ALTER TABLE `broadcasts` ADD `subscribers_only` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `track` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `opens` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `broadcasts` ADD `clicks` integer DEFAULT 0 NOT NULL;