CREATE TABLE "activity_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"subject_type" text,
	"subject_id" text,
	"ip" text,
	"details" text,
	"bytes" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_log_usage" (
	"id" text PRIMARY KEY NOT NULL,
	"bytes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp (3) with time zone NOT NULL,
	"last_used_at" timestamp (3) with time zone,
	"expires_at" timestamp (3) with time zone,
	CONSTRAINT "api_keys_secret_hash_unique" UNIQUE("secret_hash")
);
--> statement-breakpoint
ALTER TABLE "articles" ADD COLUMN "seo" text;--> statement-breakpoint
CREATE INDEX "activity_log_at_idx" ON "activity_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "activity_log_action_id_idx" ON "activity_log" USING btree ("action","id");--> statement-breakpoint
CREATE INDEX "activity_log_actor_id_id_idx" ON "activity_log" USING btree ("actor_id","id");