CREATE TABLE `preview_tokens` (
	`id` char(36) NOT NULL,
	`article_id` char(36) NOT NULL,
	`token_hash` char(64) NOT NULL,
	`expires_at` datetime(3) NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `preview_tokens_id` PRIMARY KEY(`id`),
	CONSTRAINT `preview_tokens_token_hash_unique` UNIQUE(`token_hash`)
);
--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` char(36) NOT NULL,
	`webhook_id` char(36) NOT NULL,
	`delivery_id` char(36) NOT NULL,
	`event_id` char(36) NOT NULL,
	`event_type` varchar(64) NOT NULL,
	`attempt` int NOT NULL,
	`at` datetime(3) NOT NULL,
	`outcome` varchar(16) NOT NULL,
	`status_code` int,
	`error` varchar(500),
	`duration_ms` int NOT NULL,
	`next_attempt_at` datetime(3),
	CONSTRAINT `webhook_attempts_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` char(36) NOT NULL,
	`webhook_id` char(36) NOT NULL,
	`event_id` char(36) NOT NULL,
	`status` varchar(16) NOT NULL,
	`attempts` int NOT NULL,
	`max_attempts` int NOT NULL,
	`next_attempt_at` datetime(3),
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `webhook_deliveries_id` PRIMARY KEY(`id`),
	CONSTRAINT `webhook_deliveries_event_id_webhook_id_unique` UNIQUE(`event_id`,`webhook_id`)
);
--> statement-breakpoint
CREATE TABLE `webhook_events` (
	`id` char(36) NOT NULL,
	`type` varchar(64) NOT NULL,
	`dedupe_key` varchar(100),
	`body` mediumtext NOT NULL,
	`created_at` datetime(3) NOT NULL,
	CONSTRAINT `webhook_events_id` PRIMARY KEY(`id`),
	CONSTRAINT `webhook_events_dedupe_key_unique` UNIQUE(`dedupe_key`)
);
--> statement-breakpoint
CREATE TABLE `webhooks` (
	`id` char(36) NOT NULL,
	`url` varchar(2048) NOT NULL,
	`events` varchar(255) NOT NULL,
	`description` varchar(500),
	`secret` varchar(255) NOT NULL,
	`active` boolean NOT NULL,
	`created_at` datetime(3) NOT NULL,
	`updated_at` datetime(3) NOT NULL,
	CONSTRAINT `webhooks_id` PRIMARY KEY(`id`)
);
--> statement-breakpoint
ALTER TABLE `articles` ADD `scheduled_at` datetime(3);--> statement-breakpoint
ALTER TABLE `preview_tokens` ADD CONSTRAINT `preview_tokens_article_id_articles_id_fk` FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `webhook_attempts` ADD CONSTRAINT `webhook_attempts_webhook_id_webhooks_id_fk` FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `webhook_attempts` ADD CONSTRAINT `webhook_attempts_delivery_id_webhook_deliveries_id_fk` FOREIGN KEY (`delivery_id`) REFERENCES `webhook_deliveries`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD CONSTRAINT `webhook_deliveries_webhook_id_webhooks_id_fk` FOREIGN KEY (`webhook_id`) REFERENCES `webhooks`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE `webhook_deliveries` ADD CONSTRAINT `webhook_deliveries_event_id_webhook_events_id_fk` FOREIGN KEY (`event_id`) REFERENCES `webhook_events`(`id`) ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX `preview_tokens_article_id_idx` ON `preview_tokens` (`article_id`);--> statement-breakpoint
CREATE INDEX `preview_tokens_expires_at_idx` ON `preview_tokens` (`expires_at`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_webhook_id_id_idx` ON `webhook_attempts` (`webhook_id`,`id`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_delivery_id_idx` ON `webhook_attempts` (`delivery_id`);--> statement-breakpoint
CREATE INDEX `webhook_attempts_at_idx` ON `webhook_attempts` (`at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_status_next_attempt_at_idx` ON `webhook_deliveries` (`status`,`next_attempt_at`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_webhook_id_idx` ON `webhook_deliveries` (`webhook_id`);--> statement-breakpoint
CREATE INDEX `webhook_events_created_at_idx` ON `webhook_events` (`created_at`);--> statement-breakpoint
CREATE INDEX `articles_scheduled_at_idx` ON `articles` (`scheduled_at`);