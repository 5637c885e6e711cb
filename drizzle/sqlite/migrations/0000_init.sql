CREATE TABLE `article_authors` (
	`article_id` text NOT NULL,
	`author_id` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`article_id`, `author_id`),
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`author_id`) REFERENCES `authors`(`id`) ON UPDATE no action ON DELETE restrict
);
--> statement-breakpoint
CREATE INDEX `article_authors_author_id_idx` ON `article_authors` (`author_id`);--> statement-breakpoint
CREATE TABLE `articles` (
	`id` text PRIMARY KEY NOT NULL,
	`title` text NOT NULL,
	`body` text NOT NULL,
	`format` text NOT NULL,
	`status` text NOT NULL,
	`site_id` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	`published_at` integer,
	FOREIGN KEY (`site_id`) REFERENCES `sites`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `articles_status_id_idx` ON `articles` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `articles_site_id_id_idx` ON `articles` (`site_id`,`id`);--> statement-breakpoint
CREATE TABLE `authors` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`bio` text,
	`avatar_url` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `authors_slug_unique` ON `authors` (`slug`);--> statement-breakpoint
CREATE TABLE `images` (
	`id` text PRIMARY KEY NOT NULL,
	`article_id` text NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`sha256` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`article_id`) REFERENCES `articles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `images_filename_unique` ON `images` (`filename`);--> statement-breakpoint
CREATE INDEX `images_sha256_idx` ON `images` (`sha256`);--> statement-breakpoint
CREATE INDEX `images_article_id_id_idx` ON `images` (`article_id`,`id`);--> statement-breakpoint
CREATE TABLE `sites` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`base_url` text NOT NULL,
	`description` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`display_name` text,
	`role` text NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`password_hash` text NOT NULL,
	`token_version` integer DEFAULT 0 NOT NULL,
	`owner_lock` integer,
	`verification_code_hash` text,
	`verification_expires_at` integer,
	`reset_code_hash` text,
	`reset_expires_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "users_owner_lock_check" CHECK((role = 'owner' and owner_lock = 1) or (role <> 'owner' and owner_lock is null))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_owner_lock_unique` ON `users` (`owner_lock`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_verification_code_hash_unique` ON `users` (`verification_code_hash`);--> statement-breakpoint
CREATE UNIQUE INDEX `users_reset_code_hash_unique` ON `users` (`reset_code_hash`);