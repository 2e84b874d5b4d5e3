<?php
/**
 * Removes the plugin's settings when the plugin is deleted. The post meta stays: it belongs to the posts.
 *
 * @package Sightline
 */

if ( ! defined( 'WP_UNINSTALL_PLUGIN' ) ) {
	exit;
}

delete_option( 'sightline_address' );
delete_option( 'sightline_secret' );
delete_option( 'sightline_site_id' );
delete_option( 'sightline_tracking_tag' );
