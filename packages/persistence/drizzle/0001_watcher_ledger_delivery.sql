ALTER TABLE `processed_events` ADD `delivery` text;--> statement-breakpoint
ALTER TABLE `processed_events` ADD `result` text;