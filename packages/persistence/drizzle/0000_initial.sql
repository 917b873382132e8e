CREATE TABLE `conversations` (
	`id` text PRIMARY KEY NOT NULL,
	`parent_id` text,
	`label` text,
	`depth` integer DEFAULT 0 NOT NULL,
	`title` text NOT NULL,
	`provider` text NOT NULL,
	`model` text NOT NULL,
	`status` text DEFAULT 'running' NOT NULL,
	`stop_reason` text,
	`started_at` text NOT NULL,
	`completed_at` text,
	`input_tokens` integer DEFAULT 0 NOT NULL,
	`output_tokens` integer DEFAULT 0 NOT NULL,
	`total_tokens` integer DEFAULT 0 NOT NULL,
	`turns` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`parent_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `conversations_started_at_idx` ON `conversations` (`started_at`);--> statement-breakpoint
CREATE INDEX `conversations_parent_id_idx` ON `conversations` (`parent_id`);--> statement-breakpoint
CREATE INDEX `conversations_status_started_at_idx` ON `conversations` (`status`,`started_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`conversation_id` text NOT NULL,
	`sequence` integer NOT NULL,
	`role` text NOT NULL,
	`message` text NOT NULL,
	`pruned` integer DEFAULT false NOT NULL,
	`pinned` integer DEFAULT false NOT NULL,
	`created_at` text NOT NULL,
	PRIMARY KEY(`conversation_id`, `sequence`),
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `processed_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`conversation_id` text,
	`outcome` text NOT NULL,
	`processed_at` text NOT NULL,
	FOREIGN KEY (`conversation_id`) REFERENCES `conversations`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `processed_events_conversation_id_idx` ON `processed_events` (`conversation_id`);