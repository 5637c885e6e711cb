CREATE TABLE "redirects" (
	"id" uuid PRIMARY KEY NOT NULL,
	"from_path" text NOT NULL,
	"from_hash" text NOT NULL,
	"to_location" text NOT NULL,
	"status" integer NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "redirects_from_hash_unique" UNIQUE("from_hash")
);
