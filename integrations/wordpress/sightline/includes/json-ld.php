<?php
/**
 * Prints a post's JSON-LD (the sightline_schema_json_ld meta Sightline writes) in the head of its own page. The plugin
 * prints it, rather than the post body carrying a script tag, so that authors without unfiltered_html keep their
 * JSON-LD; re-encoding the decoded JSON with JSON_HEX_TAG turns every < into \u003C, so nothing can close the script.
 *
 * @package Sightline
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Prints the JSON-LD of the post on its singular page.
 */
function sightline_print_json_ld() {
	if ( ! is_singular() ) {
		return;
	}
	$decoded = json_decode( (string) get_post_meta( get_queried_object_id(), 'sightline_schema_json_ld', true ), true );
	if ( ! is_array( $decoded ) ) {
		return;
	}
	$json = wp_json_encode( $decoded, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_HEX_TAG | JSON_HEX_AMP );
	if ( false === $json ) {
		return;
	}
	// The JSON is the escaping here: JSON_HEX_TAG and JSON_HEX_AMP leave no markup in it.
	echo '<script type="application/ld+json">' . $json . "</script>\n"; // phpcs:ignore WordPress.Security.EscapeOutput.OutputNotEscaped
}
add_action( 'wp_head', 'sightline_print_json_ld' );
