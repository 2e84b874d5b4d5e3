<?php
/**
 * The service's visitor counter on every front-end page when switched on: the same tag the service gives site owners
 * (get_analytics_sources' tag), `<script defer src="<address>/t.js" data-site="<site id>">`.
 *
 * @package Sightline
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * Prints the tag in the page's head.
 */
function sightline_print_tracking_tag() {
	$address = sightline_address();
	$site_id = (string) get_option( 'sightline_site_id', '' );
	if ( '1' !== (string) get_option( 'sightline_tracking_tag', '0' ) || '' === $address || '' === $site_id ) {
		return;
	}
	// phpcs:ignore WordPress.WP.EnqueuedResources.NonEnqueuedScript -- the service's own tag, byte for byte; wp_enqueue_script has no defer before 6.3.
	printf(
		'<script defer src="%s" data-site="%s"></script>' . "\n",
		esc_url( $address . '/t.js' ),
		esc_attr( $site_id )
	);
}
add_action( 'wp_head', 'sightline_print_tracking_tag' );
