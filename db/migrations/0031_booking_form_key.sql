ALTER TABLE `bookings` ADD `form_key` text;--> statement-breakpoint
CREATE INDEX `bookings_form_key_idx` ON `bookings` (`form_key`);